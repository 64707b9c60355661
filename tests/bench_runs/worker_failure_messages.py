#!/usr/bin/env python3
"""A worker's failure is reported by its cause.

- killed FAMILY: the workers of that family (the ceilings' sink among them) killed with SIGKILL
  in the middle of a run fail the run with a message naming a killed worker's pid and the signal,
  not a bare broken pipe or end of file.
- open_file_limit: under a limit of 16 open files, the run says "too many open files", not "Bad
  file descriptor".
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import signal

from bench_run_support import fail, finish, nothing_left_of, start, wait_for_workers

LONG_ROWS_NEEDED = {"ceilings_pipe"}
FAMILIES = {
    "ceilings_pipe": "^ceilings/pipe_between_processes/",
    "pool_prep": "^pool_prep/",
    "queued_worker": "^queued_worker/[a-z_]+/compute:host",
    "tensor_transfer": "^tensor_transfer/[a-z_]+/memory:host",
    "postproc_split": "^postproc_split/",
    "independent_tasks": "^independent_tasks/",
    "elementwise": "^elementwise/cpu_map",
}


def kill_the_workers(bench: str, family: str) -> tuple[list[int], int, str] | None:
    """Kills every worker seen at once (on a machine of many cores, one of many idle workers may
    never be asked for work again); returns their pids, the run's exit status and its output, or
    None when the run ended before a worker was seen (a worker that lived too briefly)."""
    run = start(
        bench,
        # The pipe ceiling's sink lives one row: at smoke sizes, too briefly to be caught.
        [
            *([] if family in LONG_ROWS_NEEDED else ["--handoff-smoke"]),
            f"--benchmark_filter={FAMILIES[family]}",
        ],
        with_stdout=True,
    )
    workers = wait_for_workers(run, none_if_it_ends=True)
    if not workers:
        finish(run, 60)
        return None
    for victim in workers:
        try:
            os.kill(victim, signal.SIGKILL)
        except ProcessLookupError:
            pass
    output = finish(run, 300)
    nothing_left_of(run)
    return workers, run.returncode, output


def killed(bench: str, family: str) -> None:
    # A worker killed after its last reply, in a pool that is then discarded unused, harms no
    # result: then the run may pass, and another worker is killed in a new run.
    output = "no worker lived long enough to be seen"
    for _ in range(3):
        killed_some = kill_the_workers(bench, family)
        if killed_some is None:
            continue
        victims, status, output = killed_some
        if status != 0:
            break
    else:
        fail(f"in three runs no killed worker failed the run:\n{output}")
    pids = "|".join(str(victim) for victim in victims)
    named = re.search(rf"\(pid ({pids})\)[^\n]*killed by signal 9", output)
    if named is None:
        fail(f"no line names one of pids {pids} and signal 9:\n{output}")
    print(f"ok: {family}: {output[named.start() - 60 : named.end()].strip()}")


def open_file_limit(bench: str) -> None:
    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (16, 16))

    run = start(
        bench,
        [f"--benchmark_filter={FAMILIES['queued_worker']}"],
        with_stdout=True,
        preexec_fn=few_files,
    )
    errors = finish(run, 300)
    if run.returncode == 0:
        fail(f"the run passed under a limit of 16 open files:\n{errors}")
    if "Bad file descriptor" in errors:
        fail(f"the error blames a bad descriptor:\n{errors}")
    if "too many open files" not in errors.lower():
        fail(f"the error does not say too many open files:\n{errors}")
    nothing_left_of(run)
    print("ok: the open-file limit is named")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bench", help="the handoff_bench program")
    parser.add_argument("case", choices=["killed", "open_file_limit"])
    parser.add_argument("family", nargs="?", choices=sorted(FAMILIES))
    arguments = parser.parse_args()
    if arguments.case == "killed":
        if arguments.family is None:
            parser.error("killed needs a family")
        killed(arguments.bench, arguments.family)
    else:
        open_file_limit(arguments.bench)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

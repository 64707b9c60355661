#!/usr/bin/env python3
"""The results file goes only where it was asked for, never through a link or over anything but a
regular file, two runs never share a staging file, and a run that could not write it fails.

One case a call (its name the first argument), each reproducing one way the file was lost or
misplaced: a device node, a symbolic link or a directory at the path; a link planted at the old
staging name; a missing directory; a file size limit that makes every write fail; and two runs
writing the same path while a reader keeps parsing it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import stat
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from bench_run_support import fail, finish, last_line, nothing_left_of, skip, start

QUICK_ROWS = ["--handoff-smoke", "--benchmark_filter=^inputs/"]
# Long enough for several snapshots, each a second apart.
SLOWER_ROWS = ["--handoff-smoke", "--benchmark_filter=^(inputs|elementwise/cpu_)"]
# Enough runs at once that writes coincide often.
WRITERS = 4


def refused(bench: str, path: Path, why: str) -> None:
    """The run stops before measuring, with exit 2 and one line saying why."""
    run = start(bench, [*QUICK_ROWS, f"--benchmark_out={path}"])
    began = time.monotonic()
    errors = finish(run, 60)
    if run.returncode != 2:
        fail(f"exit status {run.returncode}, expected 2 for {why}:\n{errors}")
    if why not in last_line(errors):
        fail(f"the last line does not say '{why}':\n{errors}")
    if "inputs/" in errors or time.monotonic() - began > 20:
        fail(f"it measured before refusing the path:\n{errors}")
    nothing_left_of(run)


def no_staging_left(folder: Path) -> None:
    left = [entry.name for entry in folder.iterdir() if entry.name.endswith(".writing")]
    if left:
        fail(f"staging files left behind: {left}")


def refuses_a_device(bench: str, folder: Path) -> None:
    device = folder / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError as error:
        skip(
            f"this machine forbids mknod here ({error}), so no device node can be made"
        )
    refused(bench, device, "is a character device")
    if not stat.S_ISCHR(os.lstat(device).st_mode):
        fail("the device node was replaced")


def refuses_a_link(bench: str, folder: Path) -> None:
    victim = folder / "victim.txt"
    victim.write_text("keep me\n")
    link = folder / "results.json"
    link.symlink_to(victim)
    refused(bench, link, "is a symbolic link")
    if not link.is_symlink() or victim.read_text() != "keep me\n":
        fail("the link or its target was changed")


def refuses_a_directory(bench: str, folder: Path) -> None:
    target = folder / "results.json"
    target.mkdir()
    refused(bench, target, "is a directory")


def refuses_a_missing_directory(bench: str, folder: Path) -> None:
    refused(bench, folder / "no_such_folder" / "results.json", "does not exist")
    if (folder / "no_such_folder").exists():
        fail("the missing directory was created")


def ignores_a_link_at_the_staging_name(bench: str, folder: Path) -> None:
    victim = folder / "victim.txt"
    victim.write_text("keep me\n")
    results = folder / "results.json"
    planted = folder / "results.json.writing"
    planted.symlink_to(victim)
    run = start(bench, [*QUICK_ROWS, f"--benchmark_out={results}"])
    errors = finish(run, 120)
    if run.returncode != 0:
        fail(f"exit status {run.returncode}:\n{errors}")
    if victim.read_text() != "keep me\n":
        fail("the planted link's target received the results")
    if json.loads(results.read_text())["handoff_run"]["state"] != "complete":
        fail("the results file is not complete")
    planted.unlink()
    no_staging_left(folder)


def leaves_another_runs_staging_file_alone(bench: str, folder: Path) -> None:
    """The old staging name was the same for every run: a second run truncated and renamed the
    first one's half-written file, and readers saw invalid JSON."""
    results = folder / "results.json"
    others = folder / "results.json.writing"
    others.write_text('{"another run": "half written')
    run = start(bench, [*QUICK_ROWS, f"--benchmark_out={results}"])
    errors = finish(run, 120)
    if run.returncode != 0:
        fail(f"exit status {run.returncode}:\n{errors}")
    if not others.exists() or others.read_text() != '{"another run": "half written':
        fail("the run wrote over or moved another run's staging file")
    others.unlink()
    no_staging_left(folder)


def fails_when_no_write_succeeds(bench: str, folder: Path) -> None:
    results = folder / "results.json"

    def small_file_limit() -> None:
        # The first snapshot is larger than this; the check before the run is not.
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    run = start(
        bench, [*QUICK_ROWS, f"--benchmark_out={results}"], preexec_fn=small_file_limit
    )
    errors = finish(run, 120)
    if run.returncode == 0:
        fail(f"a run whose results could not be written exited 0:\n{errors}")
    if "the results were not saved" not in last_line(errors):
        fail(f"the last line does not say the results were lost:\n{errors}")
    if results.exists():
        fail("a results file exists although no write succeeded")
    no_staging_left(folder)
    nothing_left_of(run)


def two_runs_share_a_path(bench: str, folder: Path) -> None:
    results = folder / "results.json"
    invalid: list[str] = []
    reads = 0
    stop = threading.Event()

    def keep_reading() -> None:
        nonlocal reads
        while not stop.is_set():
            try:
                text = results.read_text()
            except FileNotFoundError:
                continue
            reads += 1
            try:
                json.loads(text)
            except ValueError as error:
                invalid.append(str(error))

    reader = threading.Thread(target=keep_reading)
    reader.start()
    try:
        runs = [
            start(bench, [*SLOWER_ROWS, f"--benchmark_out={results}"])
            for _ in range(WRITERS)
        ]
        outcomes = [(run, finish(run, 240)) for run in runs]
    finally:
        stop.set()
        reader.join()
    for run, errors in outcomes:
        if run.returncode != 0 or "cannot replace" in errors:
            fail(f"exit status {run.returncode}:\n{errors}")
    if invalid:
        fail(f"{len(invalid)} of {reads} reads saw invalid JSON, first: {invalid[0]}")
    if reads == 0:
        fail("the reader never saw the file")
    no_staging_left(folder)
    print(f"{reads} reads, every one valid JSON")


CASES: dict[str, Callable[[str, Path], None]] = {
    case.__name__: case
    for case in [
        refuses_a_device,
        refuses_a_link,
        refuses_a_directory,
        refuses_a_missing_directory,
        ignores_a_link_at_the_staging_name,
        leaves_another_runs_staging_file_alone,
        fails_when_no_write_succeeds,
        two_runs_share_a_path,
    ]
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("bench", help="the handoff_bench program")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        CASES[arguments.case](arguments.bench, Path(folder))
    print(f"ok: {arguments.case}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

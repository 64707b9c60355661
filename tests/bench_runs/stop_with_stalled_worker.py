#!/usr/bin/env python3
"""One SIGINT, SIGTERM or SIGHUP stops handoff_bench within about a second, even while it waits
on a worker that has stalled (stopped with SIGSTOP), and leaves nothing behind.

Starts handoff_bench on one family's host rows, waits until it has measured a row and has
workers, stops every worker, gives the coordinator a moment to block on them, then sends the
signal to the coordinator alone. Checks that it ends within the limit with 128 + the signal, that
the results file is valid and marked incomplete with the signal, and that no process of its
session is left (the stopped workers were killed).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import tempfile
import time
from pathlib import Path

from bench_run_support import (
    fail,
    finish,
    nothing_left_of,
    start,
    wait_for_workers,
)

ROWS = {
    "tensor_transfer": "^tensor_transfer/[a-z_]+/memory:host",
    "queued_worker": "^queued_worker/[a-z_]+/compute:host",
    "pool_prep": "^pool_prep/",
}
# About a second is the aim; the slack is for a loaded two-core machine.
STOP_LIMIT_SECONDS = 5.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bench", help="the handoff_bench program")
    parser.add_argument("--signal", choices=["INT", "TERM", "HUP"], default="INT")
    parser.add_argument("--rows", choices=sorted(ROWS), default="tensor_transfer")
    arguments = parser.parse_args()
    signal_number = getattr(signal, f"SIG{arguments.signal}")

    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "results.json"
        bench = start(
            arguments.bench,
            [
                f"--benchmark_filter={ROWS[arguments.rows]}",
                f"--benchmark_out={results}",
            ],
        )
        workers = wait_for_workers(bench, results)
        for worker in workers:
            os.kill(worker, signal.SIGSTOP)
        time.sleep(1.5)
        began = time.monotonic()
        bench.send_signal(signal_number)
        errors = finish(bench, 120)
        took = time.monotonic() - began
        if took > STOP_LIMIT_SECONDS:
            fail(f"SIG{arguments.signal} took {took:.1f} s to stop the run:\n{errors}")
        if bench.returncode != 128 + signal_number:
            fail(
                f"exit status {bench.returncode}, expected {128 + signal_number}:\n{errors}"
            )
        nothing_left_of(bench)
        run = json.loads(results.read_text()).get("handoff_run", {})
        if run.get("state") != "incomplete" or f"SIG{arguments.signal}" not in run.get(
            "reason", ""
        ):
            fail(f"the file is not marked incomplete by SIG{arguments.signal}: {run}")
    print(
        f"ok: SIG{arguments.signal} stopped {arguments.rows} with {len(workers)} stalled "
        f"worker(s) in {took:.2f} s; nothing left behind"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

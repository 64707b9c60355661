#!/usr/bin/env python3
"""A Ctrl-C during the main job (ci/bench) keeps what it measured.

Runs ci/bench on a built handoff_bench (HANDOFF_BENCH, no build) over CPU rows with worker
processes, waits until the first round's second process has rows, then sends SIGINT to the job's
whole process group, as a terminal's Ctrl-C does: the log's tee too. Checks that the job exits
with 130 and says it was stopped (not that a benchmark failed), that no process was ended by
SIGPIPE on the way, that the results file merges the processes measured so far, that the report
was still written, and that no process of the job is left.

    interrupted_main_job.py SOURCE_DIR HANDOFF_BENCH
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

from bench_run_support import fail, finish, last_line, nothing_left_of, rows_in, start

ROWS = "^(tensor_transfer/[a-z_]+/memory:host|pool_prep/|queued_worker/[a-z_]+/compute:host)"


def main() -> int:
    root, bench = Path(sys.argv[1]), str(Path(sys.argv[2]).resolve())
    with tempfile.TemporaryDirectory() as folder:
        results_dir = Path(folder)
        environment = dict(
            os.environ,
            HANDOFF_SKIP_SETUP="1",
            HANDOFF_BENCH=bench,
            HANDOFF_RESULTS_DIR=str(results_dir),
            HANDOFF_BUILD_DIR=str(results_dir / "no-module"),  # C++ rows only
        )
        job = start(
            str(root / "ci/bench"),
            [f"--benchmark_filter={ROWS}"],
            with_stdout=True,
            cwd=root,
            env=environment,
        )
        deadline = time.monotonic() + 180
        while not any(rows_in(part) >= 2 for part in results_dir.glob("*.processes/process-2.json")):
            if job.poll() is not None:
                fail(f"ci/bench ended (status {job.returncode}) before it was interrupted")
            if time.monotonic() > deadline:
                os.killpg(job.pid, signal.SIGKILL)
                fail("no rows of a second process after 180 s")
            time.sleep(0.2)
        os.killpg(job.pid, signal.SIGINT)
        printed = finish(job, 120)
        if job.returncode != 128 + signal.SIGINT:
            fail(f"exit status {job.returncode}, expected 130; it ended with:\n{printed[-2000:]}")
        if "stopped by signal 2" not in last_line(printed):
            fail(f"the job does not say it was stopped: {last_line(printed)}")
        if "exited with 141" in printed or "failed verification" in printed:
            fail(f"a process of the job was ended by SIGPIPE, or called a failure:\n{printed}")
        nothing_left_of(job)
        merged = [p for p in results_dir.glob("handoff-*.json") if not p.stem.endswith("python")]
        if len(merged) != 1:
            fail(f"no one results file: {sorted(results_dir.iterdir())}")
        document = json.loads(merged[0].read_text())
        if document.get("context", {}).get("handoff_processes") != "2":
            fail(f"the results file does not merge the two processes: {document.get('context')}")
        if not list(results_dir.glob("handoff-*.html")):
            fail("no report was written for the interrupted job")
        print(f"ok: Ctrl-C stopped the main job with {rows_in(merged[0])} rows of 2 processes kept")
    return 0


if __name__ == "__main__":
    sys.exit(main())

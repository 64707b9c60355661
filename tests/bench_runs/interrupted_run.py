#!/usr/bin/env python3
"""An interrupted handoff_bench run keeps what it measured.

Starts handoff_bench on CPU rows that use worker processes and shared memory, waits until its
results file holds a few rows, then interrupts it: with SIGINT to its whole process group (a
user's Ctrl-C, which reaches the workers too) or with SIGTERM to the coordinator alone (a job
scheduler). Checks that it exits with 128 + the signal within a minute, that the results file is
valid JSON marked incomplete with the reason and the rows so far, that no process of its session
is left (and so none of its shared memory, which lives only while a process holds it), and, given
a Python with the report package, that the report renders the file and says it is incomplete.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROWS = "^(tensor_transfer/[a-z_]+/memory:host|pool_prep/|queued_worker/[a-z_]+/compute:host)"


def fail(message: str) -> None:
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def rows_in(path: Path) -> int:
    try:
        return len(json.loads(path.read_text())["benchmarks"])
    except (OSError, ValueError, KeyError):
        return 0


def processes_of_session(session: int) -> list[str]:
    left = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The fields after the command name, which may hold spaces, start after the last ')'.
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[3]) == session and fields[0] != "Z":
            left.append(f"{entry.name} {stat[: stat.rindex(')') + 1]}")
    return left


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bench", help="the handoff_bench program")
    parser.add_argument("--signal", choices=["INT", "TERM"], default="INT")
    parser.add_argument(
        "--python", help="a Python that imports handoff_reports, to render it"
    )
    parser.add_argument("--reports", help="the reports/ folder, put on PYTHONPATH")
    arguments = parser.parse_args()
    signal_number = signal.SIGINT if arguments.signal == "INT" else signal.SIGTERM

    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "results.json"
        bench = subprocess.Popen(
            [
                arguments.bench,
                f"--benchmark_filter={ROWS}",
                f"--benchmark_out={results}",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        deadline = time.monotonic() + 120
        while rows_in(results) < 3:
            if bench.poll() is not None:
                fail(
                    f"handoff_bench ended (status {bench.returncode}) before it was interrupted"
                )
            if time.monotonic() > deadline:
                bench.kill()
                fail("no three rows in the results file after 120 s")
            time.sleep(0.2)
        if signal_number == signal.SIGINT:
            os.killpg(bench.pid, signal_number)
        else:
            bench.send_signal(signal_number)
        try:
            _, errors = bench.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(bench.pid, signal.SIGKILL)
            fail(f"handoff_bench did not stop within 60 s of SIG{arguments.signal}")
        if bench.returncode != 128 + signal_number:
            fail(
                f"exit status {bench.returncode}, expected {128 + signal_number}:\n{errors}"
            )
        time.sleep(
            0.5
        )  # workers killed by the group's SIGINT are reaped by init, not by us
        # handoff's shared memory is anonymous memory files, which the kernel frees with the last
        # process holding one: with no process left, none is left either.
        left = processes_of_session(bench.pid)
        if left:
            fail("processes left behind:\n" + "\n".join(left))

        document = json.loads(results.read_text())
        run = document.get("handoff_run", {})
        if run.get("state") != "incomplete":
            fail(f"the file is not marked incomplete: {run}")
        if f"SIG{arguments.signal}" not in run.get("reason", ""):
            fail(f"the reason does not name the signal: {run}")
        measured = document["benchmarks"]
        if len(measured) < 3 or run.get("rows") != len(measured):
            fail(
                f"{len(measured)} rows in the file, handoff_run says {run.get('rows')}"
            )
        broken = [row["name"] for row in measured if row.get("error_occurred")]
        if broken:
            fail(f"rows cut short by the interrupt were written: {broken}")
        if "handoff_ceilings" not in document:
            fail("the file has no ceilings section")

        if arguments.python:
            html = Path(folder) / "report.html"
            environment = dict(os.environ)
            if arguments.reports:
                environment["PYTHONPATH"] = arguments.reports
            report = subprocess.run(
                [
                    arguments.python,
                    "-m",
                    "handoff_reports",
                    "report",
                    str(results),
                    "-o",
                    str(html),
                ],
                capture_output=True,
                text=True,
                env=environment,
                check=False,
            )
            if report.returncode != 0:
                fail(f"the report failed on the incomplete file:\n{report.stderr}")
            if "incomplete" not in html.read_text().lower():
                fail("the report does not say the run is incomplete")
    print(
        f"ok: SIG{arguments.signal} stopped handoff_bench with {len(measured)} rows kept, "
        "marked incomplete; nothing left behind"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

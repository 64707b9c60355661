#!/usr/bin/env python3
"""ci/measure-processes in two calls (HANDOFF_ROUND=first, then further), as ci/bench runs the C++
rows and the Python recipes: the first call measures the first round alone and leaves a results
file of it; the second goes on from that round's files to the further processes, numbered after
it, and merges them all; a further round with no first round to go on from is refused with the
reason, and so is an unknown round; a question (--benchmark_list_tests) is answered by the first
round only.

A stand-in for handoff_bench gives each process figures 10% from the last one's, so every row
spreads by more than 1% and earns the further processes.

Usage: split_rounds.py ROOT"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_run_support import fail, measure_processes
from stand_in_bench import rows_of, write_stand_in

ROWS = [f"inputs/seeded_nonzero/threads:1/elements:{2**k}" for k in range(10, 13)]


def repetitions(results: Path) -> int:
    return len(json.loads(results.read_text())["benchmarks"])


def main() -> None:
    root = Path(sys.argv[1])
    with tempfile.TemporaryDirectory() as folder:
        bench = write_stand_in(Path(folder), ROWS, price=0.01)
        results = Path(folder) / "run.json"
        parts = Path(folder) / "run.processes"
        arguments = [f"--benchmark_filter=^({'|'.join(ROWS)})/"]
        counts = {"HANDOFF_PROCESSES": "3", "HANDOFF_MORE_PROCESSES": "2"}

        refused = subprocess.run(
            [str(root / "ci/measure-processes"), str(results), str(bench), *arguments],
            env=dict(os.environ, HANDOFF_ROUND="further", **counts),
            capture_output=True,
            text=True,
            check=False,
        )
        if refused.returncode != 2 or "no first round" not in refused.stderr:
            fail(f"a further round without a first was not refused:\n{refused.stderr}")

        printed = measure_processes(
            root, str(bench), results, arguments, HANDOFF_ROUND="first", **counts
        )
        if (parts / "process-4.json").exists() or "more processes" in printed:
            fail(f"the first round measured further processes:\n{printed}")
        if repetitions(results) != 3 * len(ROWS):
            fail(f"the first round's results hold {repetitions(results)} repetitions")

        printed = measure_processes(
            root, str(bench), results, arguments, HANDOFF_ROUND="further", **counts
        )
        for number in (4, 5):
            if rows_of(parts / f"process-{number}.json") != {
                f"{r}/manual_time" for r in ROWS
            }:
                fail(f"further process {number} did not measure every row:\n{printed}")
        if repetitions(results) != 5 * len(ROWS):
            fail(
                f"the merged results hold {repetitions(results)} repetitions, not 5 a row"
            )
        print(
            f"ok: a first round of 3 processes, then 2 further ones, {len(ROWS)} rows each"
        )

        # A question is answered by the first round alone, not once more by the further one.
        listed = subprocess.run(
            [
                str(root / "ci/measure-processes"),
                str(results),
                str(bench),
                "--benchmark_list_tests",
            ],
            env=dict(os.environ, HANDOFF_ROUND="further", **counts),
            capture_output=True,
            text=True,
            check=False,
        )
        if listed.returncode != 0 or listed.stdout:
            fail(
                f"the further round answered a question:\n{listed.stdout}{listed.stderr}"
            )

        unknown = subprocess.run(
            [str(root / "ci/measure-processes"), str(results), str(bench), *arguments],
            env=dict(os.environ, HANDOFF_ROUND="second"),
            capture_output=True,
            text=True,
            check=False,
        )
        if unknown.returncode != 2 or "HANDOFF_ROUND must be" not in unknown.stderr:
            fail(f"an unknown round was not refused:\n{unknown.stderr}")


if __name__ == "__main__":
    main()

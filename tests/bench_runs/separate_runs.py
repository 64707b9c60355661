#!/usr/bin/env python3
"""Verdicts that hold between separate runs: an A/A and a power check on this machine's CPU rows, each run several processes (ci/measure-processes), as ci/bench makes
them.

- A/A: two separate runs of one build. compare must call no row SLOWER or FASTER, and exit 0.
- Power: a third run with PLANTED_PERCENT planted on some rows (--handoff-plant-slowdown). Every
  planted row whose stated resolution is that or better must read SLOWER, and no unplanted row may
  read SLOWER or FASTER. At least one planted row must resolve it, or the check would prove
  nothing. On a shared 2-core machine the processes of a CPU row differ by 5 to 40%, so no row
  resolves 5% there; the GPU machine's proof plants 5% (README, "Comparing two builds").

Prints every row's change, resolution and verdict.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench_run_support import fail

ROWS = (
    "^(inputs/seeded_nonzero|ceilings/shm_memcpy_one_thread/method:memcpy/bytes:(1048576|16777216)/"
    "|elementwise/cpu_serial/workload:vector_add/elements:(65536|16777216)/)"
)
PLANTED = "^(inputs/seeded_nonzero|elementwise/cpu_serial/workload:vector_add/elements:16777216/)"
# compare names rows without handoff_bench's "/manual_time" suffix.
PLANTED_ROW = re.compile(
    r"^(inputs/seeded_nonzero|elementwise/cpu_serial/workload:vector_add/elements:16777216(/|$))"
)
# More processes than ci/bench's three: this machine's spread between them is wide.
PROCESSES = "5"
PLANTED_PERCENT = 30


def measure(root: Path, bench: str, results: Path, extra: list[str]) -> None:
    environment = dict(os.environ, HANDOFF_PROCESSES=PROCESSES)
    done = subprocess.run(
        [
            str(root / "ci/measure-processes"),
            str(results),
            bench,
            f"--benchmark_filter={ROWS}",
            *extra,
        ],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        fail(
            f"measuring {results.name} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )


def check_processes(results: Path) -> None:
    """Every row is one repetition per process, each naming a process of its own."""
    rows = json.loads(results.read_text())["benchmarks"]
    tokens = {row.get("handoff_process") for row in rows}
    if None in tokens or len(tokens) != int(PROCESSES):
        fail(f"{results.name}: rows name the processes {sorted(map(str, tokens))}")


def compare(
    python: str, root: Path, baseline: Path, contender: Path
) -> tuple[int, list[dict[str, Any]]]:
    done = subprocess.run(
        [
            python,
            "-m",
            "handoff_reports",
            "compare",
            str(baseline),
            str(contender),
            "--format",
            "json",
        ],
        cwd=root,
        env=dict(os.environ, PYTHONPATH=str(root / "reports")),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        fail(f"compare failed ({done.returncode}):\n{done.stderr}")
    rows: list[dict[str, Any]] = json.loads(done.stdout)["rows"]
    return done.returncode, rows


def show(title: str, rows: list[dict[str, Any]]) -> None:
    print(title)
    for row in rows:
        resolution = row.get("resolution")
        shown = f"{resolution:.1%}" if isinstance(resolution, (int, float)) else "-"
        print(
            f"  {row['verdict']:<12} {row['change']:+8.1%}  resolution {shown:>7}  {row['name']}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bench", help="the handoff_bench program")
    parser.add_argument(
        "python", help="a Python with the report package's dependencies"
    )
    parser.add_argument(
        "root", help="the source tree (for ci/measure-processes and reports/)"
    )
    arguments = parser.parse_args()
    root = Path(arguments.root)
    with tempfile.TemporaryDirectory() as folder:
        runs = {name: Path(folder) / f"{name}.json" for name in ("a", "b", "planted")}
        measure(root, arguments.bench, runs["a"], [])
        measure(root, arguments.bench, runs["b"], [])
        measure(
            root,
            arguments.bench,
            runs["planted"],
            [f"--handoff-plant-slowdown={PLANTED_PERCENT}:{PLANTED}"],
        )

        status, rows = compare(arguments.python, root, runs["a"], runs["b"])
        show("A/A, two separate runs:", rows)
        called = [row["name"] for row in rows if row["verdict"] in ("SLOWER", "FASTER")]
        if called or status != 0:
            fail(f"the A/A called {called} (compare exited {status})")

        _, rows = compare(arguments.python, root, runs["a"], runs["planted"])
        show(f"Power, {PLANTED_PERCENT}% planted:", rows)
        resolved = [
            row
            for row in rows
            if PLANTED_ROW.search(row["name"])
            and isinstance(row.get("resolution"), (int, float))
            and row["resolution"] <= PLANTED_PERCENT / 100
        ]
        if not resolved:
            fail(
                f"no planted row resolves {PLANTED_PERCENT}% on this machine: the power check "
                "would prove nothing"
            )
        missed = [row["name"] for row in resolved if row["verdict"] != "SLOWER"]
        moved = [
            row["name"]
            for row in rows
            if not PLANTED_ROW.search(row["name"])
            and row["verdict"] in ("SLOWER", "FASTER")
        ]
        if missed or moved:
            fail(
                f"planted rows resolving {PLANTED_PERCENT}% not SLOWER: {missed}; "
                f"unplanted rows called: {moved}"
            )
    print(
        f"ok: A/A called nothing; {len(resolved)} planted row(s) resolving "
        f"{PLANTED_PERCENT}% read SLOWER"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

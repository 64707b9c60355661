#!/usr/bin/env python3
"""Verdicts that hold between separate runs: an A/A and a power check on this machine's CPU rows,
each run several processes (ci/measure-processes), as ci/bench makes them, judged as compare judges
them (the rows of a section together, each side's spread pooled with an earlier run's by
--machine-noise).

- A/A: two separate runs of one build. compare must call no row SLOWER or FASTER, and exit 0.
- Power: a third run with PLANTED_PERCENT planted on some rows (--handoff-plant-slowdown). Every
  planted row whose stated resolution is RESOLVABLE_PERCENT or finer must read SLOWER, and no
  unplanted row may read SLOWER or FASTER. Where no planted row resolves it, the power check would
  prove nothing: the test then skips (77), once the A/A has passed, and says why. A change as
  large as a row's resolution is called about half the time, one twice as large nearly always, so
  the rows held to it resolve half the plant. On a shared 2-core
  machine the processes of a CPU row differ by 5 to 40%, and whole runs by up to a third, so the
  plant here is a doubling; the GPU machine's proof plants 5% (README, "Comparing two builds").
- The machine noise: NOISE_RUNS runs measured first stand for the earlier runs a user keeps; from
  them compare learns how far whole runs move on this machine, which the processes of one run,
  measured back to back, cannot show. With four, a quiet stretch of runs could hide a rare slow
  minute (docs/design/comparing-runs.md, "Runs that move").
- A trial that fails is confirmed by a second, independent one (its own earlier runs, A/A and
  planted run), and the test fails only when that one fails too. compare calls a row of one build
  by chance in one or two comparisons in a hundred on this machine, as its 1% level allows, and
  each trial makes two comparisons: a single trial would fail the test about once in forty runs
  with nothing wrong. A rule that calls rows often fails both trials (design note, "The test of
  separate runs").

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_run_support import fail, measure_processes, skip

ROWS = (
    "^(inputs/seeded_nonzero|ceilings/shm_memcpy_one_thread/method:memcpy/bytes:(1048576|16777216)/"
    "|elementwise/cpu_serial/workload:vector_add/elements:(65536|16777216)/)"
)
PLANTED = "^(inputs/seeded_nonzero|elementwise/cpu_serial/workload:vector_add/elements:16777216/)"
# compare names rows without handoff_bench's "/manual_time" suffix.
PLANTED_ROW = re.compile(
    r"^(inputs/seeded_nonzero|elementwise/cpu_serial/workload:vector_add/elements:16777216(/|$))"
)
# As ci/bench measures a run.
PROCESSES = "3"
# Earlier runs of the same rows, each its own --machine-noise file: how far whole runs move here.
NOISE_RUNS = 8
PLANTED_PERCENT = 100
RESOLVABLE_PERCENT = 50


def measure(root: Path, bench: str, results: Path, extra: list[str]) -> None:
    measure_processes(
        root,
        bench,
        results,
        [f"--benchmark_filter={ROWS}", *extra],
        HANDOFF_PROCESSES=PROCESSES,
    )


def check_processes(results: Path) -> None:
    """Every row is one repetition per process, each naming a process of its own."""
    rows = json.loads(results.read_text())["benchmarks"]
    tokens = {row.get("handoff_process") for row in rows}
    if None in tokens or len(tokens) != int(PROCESSES):
        fail(f"{results.name}: rows name the processes {sorted(map(str, tokens))}")


def compare(
    python: str, root: Path, baseline: Path, contender: Path, noise: list[Path]
) -> tuple[int, list[dict[str, Any]]]:
    done = subprocess.run(
        [
            python,
            "-m",
            "handoff_reports",
            "compare",
            str(baseline),
            str(contender),
            *[argument for run in noise for argument in ("--machine-noise", str(run))],
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
        print(f"  {row['verdict']:<12} {row['change']:+8.1%}  resolution {shown:>7}  {row['name']}")


@dataclass(frozen=True)
class Trial:
    failures: list[str]  # why it failed; empty where it passed
    resolved: int  # planted rows resolving RESOLVABLE_PERCENT, all SLOWER where it passed


def trial(python: str, root: Path, bench: str, folder: Path) -> Trial:
    """Earlier runs, two plain runs and a planted one, measured one after the other, and both
    comparisons judged."""
    folder.mkdir()
    noise_names = tuple(f"noise-{run}" for run in range(NOISE_RUNS))
    names = (*noise_names, "a", "b", "planted")
    runs = {name: folder / f"{name}.json" for name in names}
    for name in (*noise_names, "a", "b"):
        measure(root, bench, runs[name], [])
    measure(root, bench, runs["planted"], [f"--handoff-plant-slowdown={PLANTED_PERCENT}:{PLANTED}"])
    for name in names:
        check_processes(runs[name])
    noise = [runs[name] for name in noise_names]

    failures = []
    status, rows = compare(python, root, runs["a"], runs["b"], noise)
    show("A/A, two separate runs:", rows)
    called = [row["name"] for row in rows if row["verdict"] in ("SLOWER", "FASTER")]
    if called or status != 0:
        failures.append(f"the A/A called {called} (compare exited {status})")

    _, rows = compare(python, root, runs["a"], runs["planted"], noise)
    show(f"Power, {PLANTED_PERCENT}% planted:", rows)
    resolved = [
        row
        for row in rows
        if PLANTED_ROW.search(row["name"])
        and isinstance(row.get("resolution"), (int, float))
        and row["resolution"] <= RESOLVABLE_PERCENT / 100
    ]
    moved = [
        row["name"]
        for row in rows
        if not PLANTED_ROW.search(row["name"]) and row["verdict"] in ("SLOWER", "FASTER")
    ]
    missed = [row["name"] for row in resolved if row["verdict"] != "SLOWER"]
    if missed or moved:
        failures.append(
            f"planted rows resolving {RESOLVABLE_PERCENT}% not SLOWER: {missed}; "
            f"unplanted rows called: {moved}"
        )
    return Trial(failures, len(resolved))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bench", help="the handoff_bench program")
    parser.add_argument("python", help="a Python with the report package's dependencies")
    parser.add_argument("root", help="the source tree (for ci/measure-processes and reports/)")
    arguments = parser.parse_args()
    root = Path(arguments.root)
    with tempfile.TemporaryDirectory() as folder:
        print("Trial 1:")
        first = trial(arguments.python, root, arguments.bench, Path(folder) / "1")
        decided = first
        if first.failures:
            print(
                f"Trial 1 failed: {'; '.join(first.failures)}.\n"
                "A second, independent trial decides whether that was chance:"
            )
            decided = trial(arguments.python, root, arguments.bench, Path(folder) / "2")
            if decided.failures:
                fail(
                    f"both trials failed. Trial 1: {'; '.join(first.failures)}. "
                    f"Trial 2: {'; '.join(decided.failures)}"
                )
    if not decided.resolved:
        # The A/A has passed; only the power check has nothing to stand on.
        skip(
            f"the A/A called nothing, but no planted row resolves {RESOLVABLE_PERCENT}%: this "
            "machine's earlier runs moved by more than the plant, so the power check would "
            "prove nothing now"
        )
    confirmed = " in the second trial" if first.failures else ""
    print(
        f"ok: A/A called nothing; {decided.resolved} planted row(s) resolving "
        f"{RESOLVABLE_PERCENT}% read SLOWER ({PLANTED_PERCENT}% planted){confirmed}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

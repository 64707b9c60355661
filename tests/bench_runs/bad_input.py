#!/usr/bin/env python3
"""Bad input to handoff_bench gets one line naming what is wrong, and exit 2, before anything is
measured: every numeric flag out of its range or not a number (zero repetitions among them), a
flag that only lists given to a run, an earlier results file (--handoff-ceilings-from) that nests
too deep or is too large to be one, a HANDOFF_SPIN that names no way to spin, and a
HANDOFF_SPIN_US beyond the longest spin.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from bench_run_support import fail, finish, start

# (the flag, what the line must say)
BAD_FLAGS = [
    (
        "--benchmark_repetitions=0",
        "--benchmark_repetitions needs a number in (0, 10000]",
    ),
    (
        "--benchmark_repetitions=abc",
        "--benchmark_repetitions needs a number in (0, 10000]",
    ),
    (
        "--benchmark_repetitions=-1",
        "--benchmark_repetitions needs a number in (0, 10000]",
    ),
    ("--handoff-processes=0", "--handoff-processes needs a number in (0, 64]"),
    ("--handoff-passes=0", "--handoff-passes needs a number in (0,"),
    ("--handoff-passes=1e9", "--handoff-passes needs a number in (0,"),
    ("--handoff-max-noise=-1", "--handoff-max-noise needs a number in (0,"),
    ("--handoff-timeout=abc", "--handoff-timeout needs a number in (0,"),
    ("--handoff-min-samples=0", "--handoff-min-samples needs a number in (0,"),
    ("--handoff-min-time=nan", "--handoff-min-time needs a number in (0,"),
    ("--handoff-max-elements=0", "--handoff-max-elements needs a number in (0,"),
    (
        "--handoff-shuffle-families=-3",
        "--handoff-shuffle-families needs a number in (0,",
    ),
    ("--handoff-list-as-gpus=0", "--handoff-list-as-gpus needs a number in (0, 64]"),
    ("--handoff-list-as-gpus=2", "--handoff-list-as-gpus lists only"),
]


def one_line_refusal(
    bench: str, arguments: list[str], says: str, environment: dict[str, str] | None = None
) -> None:
    run = start(bench, ["--benchmark_filter=^inputs/", *arguments], env=environment)
    errors = finish(run, 60)
    lines = [line for line in errors.splitlines() if line.strip()]
    if run.returncode != 2:
        fail(f"{arguments}: exit status {run.returncode}, expected 2:\n{errors}")
    if len(lines) != 1 or says not in lines[0]:
        fail(f"{arguments}: expected one line saying '{says}', got:\n{errors}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bench", help="the handoff_bench program")
    bench = parser.parse_args().bench
    for flag, says in BAD_FLAGS:
        one_line_refusal(bench, [flag], says)
    with tempfile.TemporaryDirectory() as folder:
        deep = Path(folder) / "deep.json"
        deep.write_text("[" * 300_000 + "]" * 300_000)
        one_line_refusal(
            bench, [f"--handoff-ceilings-from={deep}"], "nested deeper than 64"
        )
        large = Path(folder) / "large.json"
        with large.open("wb") as sparse:
            sparse.truncate(300 << 20)
        one_line_refusal(bench, [f"--handoff-ceilings-from={large}"], "over the cap")
        missing = Path(folder) / "missing.json"
        one_line_refusal(
            bench, [f"--handoff-ceilings-from={missing}"], "No such file or directory"
        )
    spinning = {**os.environ, "HANDOFF_SPIN": "busy"}
    one_line_refusal(bench, [], "HANDOFF_SPIN must be yield, pause or peer, not 'busy'", spinning)
    long_spin = {**os.environ, "HANDOFF_SPIN_US": "20000"}
    one_line_refusal(
        bench,
        [],
        "HANDOFF_SPIN_US must be a whole number of microseconds from 0 to 10000, not '20000'",
        long_spin,
    )
    print(f"ok: {len(BAD_FLAGS) + 5} bad inputs, each refused with one line and exit 2")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

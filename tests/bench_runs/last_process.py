#!/usr/bin/env python3
"""Where the rows chosen for further processes no longer fit before HANDOFF_FINISH_BY,
ci/measure-processes still measures the rows that do, the headline's first, in one last process,
rather than none: a headline row compared at seven processes a side resolves less than at eight.

A stand-in for handoff_bench makes the timing exact: each row takes 2 s in a further process, as
its price says, and the first further process starts 8 s late. With 34 s before the deadline (less
the final merge and a second, which ci/measure-processes keeps back) and 2 further processes, all
6 rows are chosen (2 x 12 s); the first further process takes 20 s, so a second of all 6 rows
would end past the deadline; the last process measures fewer rows, the headline row among them,
and no more than fit in the seconds it announced it had left.

Usage: last_process.py ROOT"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from bench_run_support import fail
from stand_in_bench import (
    announced_seconds,
    measure_before_deadline,
    rows_of,
    write_stand_in,
)

ROW_SECONDS = 2.0
HEADLINE_ROW = "elementwise/cpu_serial/workload:vector_add/elements:65536"
# The rows after it earn processes by their spread only.
ROWS = [
    HEADLINE_ROW,
    *(f"inputs/seeded_nonzero/threads:1/elements:{2**k}" for k in range(10, 15)),
]


def main() -> None:
    root = Path(sys.argv[1])
    with tempfile.TemporaryDirectory() as folder:
        bench = write_stand_in(
            Path(folder), ROWS, price=ROW_SECONDS, takes=ROW_SECONDS, slow_start=8.0
        )
        printed = measure_before_deadline(root, bench, ROWS, 34)
        parts = Path(folder) / "run.processes"
        if not (parts / "process-5.json").exists():
            fail(f"no last process was measured:\n{printed}")
        further = [rows_of(parts / f"process-{n}.json") for n in (4, 5)]
        print(
            f"further processes measured {len(further[0])} and then {len(further[1])} rows"
        )
        if len(further[0]) != len(ROWS):
            fail(f"the first further process should measure every row:\n{printed}")
        if not 0 < len(further[1]) < len(ROWS):
            fail(f"the last process should measure some rows, not all:\n{printed}")
        if not any(row.startswith(HEADLINE_ROW) for row in further[1]):
            fail(f"the last process left out the headline row:\n{printed}")
        left = announced_seconds(
            printed,
            r"(\d+) s left for processes before the run's deadline: a last process",
        )
        if len(further[1]) * ROW_SECONDS > left:
            fail(
                f"the last process was given {len(further[1])} rows of {ROW_SECONDS:.0f} s"
                f" with {left} s left:\n{printed}"
            )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""ci/measure-processes tops up its further processes: the first round prices each row at what
one process of it took (`row_seconds`), which is on the safe side; once a further process has
shown what a process really takes, the processes after it measure more rows in the time left.

A stand-in for handoff_bench makes the timing exact: it writes every row with a `row_seconds`
of 4 s and takes no time at all. With 20 s before HANDOFF_FINISH_BY and 2 further processes, the
first choice holds about 2 rows (2 processes x 4 s each); the first further process takes 0 s,
so the second has the time left and measures more rows, no more than fit in the time it
announced to spare.

Usage: top_up.py ROOT"""

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

# A headline row (it earns processes first), then rows that earn them by their spread.
ROW_SECONDS = 4.0
ROWS = [
    "elementwise/cpu_serial/workload:vector_add/elements:65536",
    *(f"inputs/seeded_nonzero/threads:1/elements:{2**k}" for k in range(10, 16)),
]


def main() -> None:
    root = Path(sys.argv[1])
    with tempfile.TemporaryDirectory() as folder:
        bench = write_stand_in(Path(folder), ROWS, price=ROW_SECONDS)
        printed = measure_before_deadline(root, bench, ROWS, 20)
        parts = Path(folder) / "run.processes"
        further = [rows_of(parts / f"process-{n}.json") for n in (4, 5)]
        print(
            f"further processes measured {len(further[0])} and then {len(further[1])} rows"
        )
        if not 0 < len(further[0]) < len(ROWS):
            fail(f"the first choice should hold some rows, not all:\n{printed}")
        if not further[0] < further[1]:
            fail(f"the second further process was not topped up:\n{printed}")
        spare = announced_seconds(printed, r"time to spare \((\d+) s\)")
        added = len(further[1] - further[0])
        if added * ROW_SECONDS > spare:
            fail(
                f"the top-up added {added} rows of {ROW_SECONDS:.0f} s"
                f" with {spare} s to spare:\n{printed}"
            )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""ci/measure-processes with HANDOFF_MORE_PROCESSES: after the first processes, further processes
measure only the rows that earn them (handoff_reports wide-rows: the rows the claims and the
headline name, and the others whose processes spread by more than 1%), in place of the user's
filter, and the merged file holds every process of every row; with a
HANDOFF_FINISH_BY already past, no row fits and no further process runs.

Usage: more_processes.py HANDOFF_BENCH ROOT"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
from pathlib import Path

from bench_run_support import fail, measure_processes

ROWS = (
    "^(inputs/seeded_nonzero"
    "|elementwise/cpu_(serial|threads)/workload:vector_add/elements:(1024|65536)/)"
)
FIRST, MORE = 3, 2


def measure(root: Path, bench: str, results: Path, **environment: str) -> str:
    return measure_processes(
        root,
        bench,
        results,
        [f"--benchmark_filter={ROWS}", "--handoff-max-noise=5"],
        HANDOFF_PROCESSES=str(FIRST),
        HANDOFF_MORE_PROCESSES=str(MORE),
        **environment,
    )


def main() -> None:
    bench, root = sys.argv[1], Path(sys.argv[2])
    sys.path.insert(0, str(root / "reports"))
    from handoff_reports.claims_file import load_claims
    from handoff_reports.merge import merge_documents
    from handoff_reports.results import by_process, parse_results
    from handoff_reports.wide_rows import candidates, claimed_by

    headline_lines = (root / "ci" / "headline-rows").read_text().splitlines()
    headline = re.compile(
        "|".join(line for line in headline_lines if not line.startswith("#"))
    )
    claimed = claimed_by(load_claims())

    def is_first(key: str) -> bool:
        return claimed(key) or headline.search(key + "/") is not None

    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "run.json"
        printed = measure(root, bench, results)
        parts = sorted((Path(folder) / "run.processes").glob("process-*.json"))
        documents = [json.loads(part.read_text()) for part in parts]
        first = parse_results(merge_documents(documents[:FIRST]))
        wide = {c.key for c in candidates(first.rows.values(), 0.01, is_first)}
        print(f"first round: {len(first.rows)} rows, {len(wide)} earn more processes")
        if not wide:
            if len(parts) != FIRST or "no row earns more processes" not in printed:
                fail(f"no wide row, yet {len(parts)} processes ran:\n{printed}")
            return
        if len(parts) != FIRST + MORE:
            fail(f"{len(wide)} wide rows, but {len(parts)} processes ran:\n{printed}")
        for document in documents[FIRST:]:
            measured = set(parse_results(document).rows)
            # A filtered run also measures the ceilings its rows' floors need.
            rows = {key for key in measured if not key.startswith("ceilings/")}
            if not rows <= wide:
                fail(
                    f"a further process measured rows that were not wide: {sorted(rows - wide)}"
                )
            if not wide <= measured:
                fail(f"a further process missed wide rows: {sorted(wide - measured)}")
        merged = parse_results(json.loads(results.read_text()))
        for key, row in merged.rows.items():
            expected = FIRST + MORE if key in wide else FIRST
            processes = len(by_process(row.repetition_figures))
            if not key.startswith("ceilings/") and processes != expected:
                fail(f"{key}: {processes} processes, not {expected}")
        print(
            f"merged: the {len(wide)} wide rows have {FIRST + MORE} processes, the rest {FIRST}"
        )

        late = Path(folder) / "late.json"
        printed = measure(root, bench, late, HANDOFF_FINISH_BY=str(int(time.time())))
        processes = len(list((Path(folder) / "late.processes").glob("process-*.json")))
        if processes != FIRST or "none fits the time left" not in printed:
            fail(
                f"past its deadline, the run measured {processes} processes:\n{printed}"
            )
        print("past the deadline: no further process")


if __name__ == "__main__":
    main()

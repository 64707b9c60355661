#!/usr/bin/env python3
"""Sampled in pairs (--handoff-plant-alternate=samples), every row is written as two halves a pass.

Runs two quick CPU rows for 2 passes, with a 100% slowdown planted on one of them, and checks the
results file: each row has 4 repetitions, numbered 0 to 3 of 4; the even ones (the plain halves)
carry no planted counters; the odd ones (the planted halves) carry them only on the planted row,
where each is slower than the plain half of its pass, and the realised fraction it reports is its
time over that plain half's; every half has its own samples, noise and interval around its time.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

PLANTED = "^postproc_split/cpu_serial/elements:1048576/"
OTHER = "^pool_prep/cpu_serial/chunks:10/elements:65536/"


def fail(message: str) -> None:
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def main() -> int:
    bench = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "run.json"
        run = subprocess.run(
            [
                bench,
                f"--benchmark_filter={PLANTED}|{OTHER}",
                "--handoff-passes=2",
                # Doubled, not the 25% compare is shown to see: this test checks the layout, and
                # under ASan on a loaded machine the halves' medians move by more than a 25% plant.
                f"--handoff-plant-slowdown=100:{PLANTED}",
                "--handoff-plant-alternate=samples",
                "--handoff-min-samples=15",
                "--handoff-min-time=0.01",
                # A loose noise target ends each half at its 15 samples; the time cap is only a
                # backstop, wide enough for a sanitizer build to reach them.
                "--handoff-max-noise=50",
                "--handoff-timeout=5",
                f"--benchmark_out={out}",
            ],
            capture_output=True,
            text=True,
            timeout=100,
            check=False,
        )
        if run.returncode != 0:
            fail(f"handoff_bench exited {run.returncode}:\n{run.stdout}\n{run.stderr}")
        document = json.loads(out.read_text())
    context = document["context"]
    if not context.get("setting_planted_slowdown", "").endswith(
        "(every second sample)"
    ):
        fail(
            f"the context does not name the design: {context.get('setting_planted_slowdown')}"
        )
    rows: dict[str, list[dict]] = defaultdict(list)
    for benchmark in document["benchmarks"]:
        if benchmark["run_name"].startswith(("postproc_split/", "pool_prep/")):
            rows[benchmark["run_name"]].append(benchmark)
    if len(rows) != 2:
        fail(f"expected the two rows, found {sorted(rows)}")
    for name, halves in rows.items():
        planted_row = name.startswith("postproc_split/")
        halves.sort(key=lambda benchmark: benchmark["repetition_index"])
        if [h["repetition_index"] for h in halves] != [0, 1, 2, 3]:
            fail(f"{name}: repetitions {[h['repetition_index'] for h in halves]}")
        if any(h["repetitions"] != 4 for h in halves):
            fail(f"{name}: not written as 4 repetitions")
        for half in halves:
            if not (half["samples"] >= 5 and half["ci_low"] <= half["ci_high"]):
                fail(
                    f"{name} #{half['repetition_index']}: no samples or interval of its own"
                )
            median = half["real_time"] * 1e-6  # microseconds, as this row reports
            if not (
                half["ci_low"] <= median * 1.0001 and median <= half["ci_high"] * 1.0001
            ):
                fail(
                    f"{name} #{half['repetition_index']}: time outside its own interval"
                )
        for plain, planted in zip(halves[0::2], halves[1::2], strict=True):
            if "planted_slowdown" in plain:
                fail(f"{name}: a plain half carries planted counters")
            if not planted_row:
                if "planted_slowdown" in planted:
                    fail(
                        f"{name}: an unplanted row's second half carries planted counters"
                    )
                continue
            if planted.get("planted_slowdown") != 1.0:
                fail(f"{name}: the planted half does not name its slowdown")
            ratio = planted["real_time"] / plain["real_time"]
            if not ratio > 1.0:
                fail(f"{name}: the planted half is not slower ({ratio:.3f})")
            if abs(planted["planted_actual"] - (ratio - 1)) > 1e-6:
                fail(
                    f"{name}: realised {planted['planted_actual']}, times say {ratio - 1}"
                )
    print("ok: every row written as a plain and a planted half per pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())

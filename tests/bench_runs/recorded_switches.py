#!/usr/bin/env python3
"""The experiments' switches are settings of the run: HANDOFF_SPIN, HANDOFF_SPIN_US and
HANDOFF_WORKER_CORES are written into the JSON context (setting_spin, setting_spin_us,
setting_worker_cores), their defaults where unset, so that compare can tell two runs measured with
different switches apart.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_run_support import fail

ROW = "^pool_prep/cpu_serial/chunks:10/elements:65536/"
SWITCHES = ("HANDOFF_SPIN", "HANDOFF_SPIN_US", "HANDOFF_WORKER_CORES")


def recorded(bench: str, folder: Path, **switches: str) -> dict[str, str]:
    out = folder / "run.json"
    environment = {k: v for k, v in os.environ.items() if k not in SWITCHES}
    environment.update(switches)
    ran = subprocess.run(
        [bench, f"--benchmark_filter={ROW}", "--handoff-min-time=0.005",
         "--handoff-timeout=0.05", f"--benchmark_out={out}"],
        capture_output=True, text=True, timeout=120, check=False, env=environment,
    )  # fmt: skip
    if ran.returncode != 0:
        fail(f"the run with {switches} exited {ran.returncode}: {ran.stderr[-2000:]}")
    context = json.loads(out.read_text())["context"]
    return {key: context.get(f"setting_{key}") for key in ("spin", "spin_us", "worker_cores")}


def main() -> None:
    bench = sys.argv[1]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        defaults = recorded(bench, folder)
        if defaults != {"spin": "yield", "spin_us": "400", "worker_cores": "scheduler"}:
            fail(f"with no switch set, the context says {defaults}")
        switched = recorded(
            bench, folder, HANDOFF_SPIN="pause", HANDOFF_SPIN_US="50", HANDOFF_WORKER_CORES="held"
        )
        if switched != {"spin": "pause", "spin_us": "50", "worker_cores": "held"}:
            fail(f"with every switch set, the context says {switched}")
    print("ok: every switch recorded, unset and set")


if __name__ == "__main__":
    main()

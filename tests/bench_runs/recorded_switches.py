#!/usr/bin/env python3
"""The experiments' switches are settings of the run: HANDOFF_SPIN and HANDOFF_WORKER_CORES are
written into the JSON context (setting_spin, setting_worker_cores), their defaults where unset,
so that compare can tell two runs measured with different switches apart.
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


def recorded(bench: str, folder: Path, **switches: str) -> dict[str, str]:
    out = folder / "run.json"
    environment = {k: v for k, v in os.environ.items() if k not in switches and
                   k not in ("HANDOFF_SPIN", "HANDOFF_WORKER_CORES")}  # fmt: skip
    environment.update(switches)
    ran = subprocess.run(
        [bench, f"--benchmark_filter={ROW}", "--handoff-min-time=0.005",
         "--handoff-timeout=0.05", f"--benchmark_out={out}"],
        capture_output=True, text=True, timeout=120, check=False, env=environment,
    )  # fmt: skip
    if ran.returncode != 0:
        fail(f"the run with {switches} exited {ran.returncode}: {ran.stderr[-2000:]}")
    context = json.loads(out.read_text())["context"]
    return {key: context.get(f"setting_{key}") for key in ("spin", "worker_cores")}


def main() -> None:
    bench = sys.argv[1]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        defaults = recorded(bench, folder)
        if defaults != {"spin": "yield", "worker_cores": "scheduler"}:
            fail(f"with neither switch set, the context says {defaults}")
        switched = recorded(bench, folder, HANDOFF_SPIN="pause", HANDOFF_WORKER_CORES="held")
        if switched != {"spin": "pause", "worker_cores": "held"}:
            fail(f"with both switches set, the context says {switched}")
    print("ok: both switches recorded, unset and set")


if __name__ == "__main__":
    main()

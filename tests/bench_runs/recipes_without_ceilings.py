#!/usr/bin/env python3
"""The main job (ci/bench) measures the Python recipes even where its filter leaves every ceiling
out of the C++ rows: their floors then go unpriced, and the job says so, rather than failing on an
earlier results file that holds no ceilings to reuse. Where the filter keeps a ceiling, the
recipes reuse the C++ rows' ceilings.

    recipes_without_ceilings.py SOURCE_DIR HANDOFF_BENCH BUILD_DIR_WITH_THE_MODULE
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench_run_support import fail

CPP_ROW = "^elementwise/cpu_serial/workload:vector_add/elements:65536/"
CEILING = "^ceilings/shm_memcpy_one_thread/method:memcpy/bytes:1048576/"
RECIPE = "^tensor_transfer/python_pipe/memory:host/bytes:4096/"


def main_job(root: Path, bench: str, build_dir: str, rows: str, results: Path) -> str:
    done = subprocess.run(
        [str(root / "ci/bench"), f"--benchmark_filter={rows}|{RECIPE}"],
        cwd=root,
        env=dict(
            os.environ,
            HANDOFF_SKIP_SETUP="1",
            HANDOFF_BENCH=bench,
            HANDOFF_BUILD_DIR=build_dir,
            HANDOFF_RESULTS_DIR=str(results),
            HANDOFF_PROCESSES="1",
            HANDOFF_MORE_PROCESSES="0",
        ),
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    printed = done.stdout + done.stderr
    if done.returncode != 0:
        fail(f"ci/bench over {rows} exited with {done.returncode}:\n{printed[-3000:]}")
    return printed


def recipe_file(results: Path) -> dict[str, Any]:
    found = list(results.glob("handoff-*-python.json"))
    if len(found) != 1:
        fail(f"no one results file of the Python recipes in {sorted(results.iterdir())}")
    document = json.loads(found[0].read_text())
    if not any("python_pipe" in entry["name"] for entry in document["benchmarks"]):
        fail(f"the Python recipe was not measured: {found[0]}")
    return document


def main() -> int:
    root, bench, build_dir = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    with tempfile.TemporaryDirectory() as folder:
        unpriced = Path(folder) / "without-ceilings"
        printed = main_job(root, bench, build_dir, CPP_ROW, unpriced)
        if "their floors unpriced, as the C++ rows measured no ceilings" not in printed:
            fail(f"the job does not say the recipes' floors go unpriced:\n{printed[-3000:]}")
        if recipe_file(unpriced).get("handoff_ceilings_source", {}).get("kind") == "reused":
            fail("the recipes claim to reuse ceilings that the C++ rows did not measure")

        priced = Path(folder) / "with-a-ceiling"
        printed = main_job(root, bench, build_dir, CEILING, priced)
        if "their floors priced at this run's ceilings" not in printed:
            fail(f"the recipes did not reuse the C++ rows' ceilings:\n{printed[-3000:]}")
        source = recipe_file(priced).get("handoff_ceilings_source", {})
        if source.get("kind") != "reused":
            fail(f"the recipes' ceilings were not the C++ rows': {source}")
        print("ok: the recipes were measured without ceilings to reuse, and reused the C++ rows'")
    return 0


if __name__ == "__main__":
    sys.exit(main())

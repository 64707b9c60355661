"""A row whose hand-off is planted with a fault, by mode: wrong (one element off), raises (a
worker raises), dies (the worker exits mid-run), unavailable (a second benchmark this machine
cannot run beside it). python planted.py MODE [handoff_bench flags]."""

from __future__ import annotations

import multiprocessing
import os
import sys
from typing import Any

import numpy as np

import handoff
from handoff.recipes import pool_prep
from handoff.recipes.context import SEED_A, SEED_B, spawn
from handoff.recipes.deadlines import pool_answer


def raising_chunk(extent: tuple[int, int]) -> Any:
    raise ValueError(f"planted failure in chunk {extent}")


def dying_chunk(extent: tuple[int, int]) -> Any:
    os._exit(3)


def setup(workspace: handoff.Workspace, point: handoff.Point) -> Any:
    return {
        "a": workspace.inputs(1000, SEED_A),
        "b": workspace.inputs(1000, SEED_B),
        "out": workspace.output(1000),
        "pool": spawn().Pool(1),
    }


def run(case: Any) -> None:
    mode = sys.argv[1]
    if mode in ("raises", "dies"):
        work = raising_chunk if mode == "raises" else dying_chunk
        pool_answer(case["pool"].map_async(work, [(0, 1)]), "planted pool")
    np.add(case["a"], case["b"], out=case["out"])
    if mode == "wrong":
        case["out"][7] += 1.0


def verify(case: Any) -> int:
    return handoff.wrong_elements(handoff.expected_vector_add(1000, SEED_A, SEED_B), case["out"])


def close(case: Any) -> None:
    case["pool"].terminate()
    case["pool"].join()


if __name__ == "__main__":
    del pool_prep
    planted = handoff.Benchmark(
        "selftest", "planted", "a row with a planted fault", setup, run, verify, close=close
    )
    absent = handoff.Benchmark(
        "selftest",
        "absent",
        "a row whose library this machine lacks",
        setup,
        run,
        verify,
        close=close,
        unavailable=lambda: "no planted library here",
    )
    benchmarks = [planted, absent] if sys.argv[1] == "unavailable" else [planted]
    outcome = handoff.run(benchmarks, sys.argv[2:])
    print(f"children left: {len(multiprocessing.active_children())}")
    for name, error in outcome.errors.items():
        print(f"raised {name} {type(error).__name__}: {error}")
    sys.exit(outcome.status)

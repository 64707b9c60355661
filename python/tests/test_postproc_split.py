import math
import multiprocessing
import os
from pathlib import Path

import numpy as np
import pytest
from handoff_reports.results import load_results

import handoff
from handoff.recipes import deadlines, postproc_split

SMOKE_ROW = "postproc_split/python_seed/target:host/elements:100003/chunks:7/workers:4/start:warm"
POINT = {"elements": 10_007, "chunks": 3, "workers": 2}


def dying_step(data: np.ndarray) -> np.float32:
    os._exit(3)


def test_rows_match_the_cpp_rows_points():
    names = [b.row_name(p) for b in postproc_split.benchmarks(False) for p in b.points()]
    assert names == [
        "postproc_split/python_seed/target:host/elements:1048576/chunks:1/workers:4/start:warm",
        "postproc_split/python_seed/target:host/elements:10000000/chunks:10/workers:4/start:warm",
        "postproc_split/python_seed/target:host/elements:10000000/chunks:10/workers:2/start:warm",
        "postproc_split/python_seed/target:host/elements:10000000/chunks:10/workers:8/start:warm",
    ]
    # The recipe's c.size // chunk_size, which is 0 below one chunk.
    assert postproc_split.sections(999_999) == 1


def test_a_run_sums_c_and_verifies_against_an_independent_sum():
    case = postproc_split.setup(handoff.Workspace(), POINT)
    try:
        assert postproc_split.verify(case) > 0  # poisoned: nothing has run
        postproc_split.run(case)
        assert postproc_split.verify(case) == 0
        c = handoff.seeded(10_007, postproc_split.SEED_A) + handoff.seeded(
            10_007, postproc_split.SEED_B
        )
        assert handoff.wrong_reduction(math.fsum(c.tolist()), float(case.out[0])) == 0
        case.out[0] += 1.0
        assert postproc_split.verify(case) == 1
    finally:
        postproc_split.close(case)
    assert not multiprocessing.active_children()


def test_the_smoke_row_runs_and_verifies(run_python, tmp_path: Path):
    results = tmp_path / "postproc.json"
    shm_before = set(os.listdir("/dev/shm"))
    done = run_python(
        "-m",
        "handoff",
        "--handoff-profile=smoke",
        "--benchmark_filter=^postproc_split/python_seed/",
        f"--benchmark_out={results}",
    )
    assert done.returncode == 0, done.stderr
    rows = load_results(results).rows
    assert set(rows) == {SMOKE_ROW}
    row = rows[SMOKE_ROW]
    assert row.error is None and row.wrong == 0 and row.verified > 0
    assert set(os.listdir("/dev/shm")) <= shm_before


def test_a_dying_worker_is_a_worker_error_with_no_child_left(monkeypatch):
    monkeypatch.setattr(deadlines, "DEADLINE_SECONDS", 3.0)
    case = postproc_split.setup(handoff.Workspace(), POINT)
    case.step = dying_step
    try:
        with pytest.raises(handoff.WorkerError, match="postproc_split pool: .*a worker died"):
            postproc_split.run(case)
    finally:
        postproc_split.close(case)
    assert not multiprocessing.active_children()

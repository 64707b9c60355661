import os
import time
from pathlib import Path

import pytest

import handoff
from handoff.recipes.context import spawn
from handoff.recipes.warm_pool import PoolStart, warm_pool

WARM_DIR = "HANDOFF_TEST_WARM_DIR"


def _warm_up_slowly_and_note() -> None:
    time.sleep(0.5)
    Path(os.environ[WARM_DIR], str(os.getpid())).touch()


def _warm(warm_up, start: PoolStart) -> None:  # type: ignore[no-untyped-def]
    start.warm(warm_up)


def _never_warm() -> None:
    time.sleep(3600)


def test_every_worker_has_warmed_up_when_the_pool_is_handed_over(tmp_path, monkeypatch):
    monkeypatch.setenv(WARM_DIR, str(tmp_path))
    pool = warm_pool(spawn(), 6, _warm, _warm_up_slowly_and_note, "test pool")
    try:
        warmed = len(list(tmp_path.iterdir()))
    finally:
        pool.terminate()
        pool.join()
    assert warmed == 6


def test_a_pool_that_never_warms_up_is_a_worker_error_within_its_deadline():
    context = spawn()
    start = PoolStart(context.Semaphore(0))
    pool = context.Pool(processes=2, initializer=_warm, initargs=(_never_warm, start))
    try:
        began = time.monotonic()
        with pytest.raises(handoff.WorkerError, match="0 of 2 workers warmed up in 1 s"):
            start.wait_for(2, "test pool", seconds=1.0)
        assert time.monotonic() - began < 10
    finally:
        pool.terminate()
        pool.join()

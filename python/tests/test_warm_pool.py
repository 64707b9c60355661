import os
import time
from pathlib import Path

import pytest

import handoff
from handoff.recipes.context import spawn
from handoff.recipes.warm_pool import CONTEXTS_AT_ONCE, PoolStart, warm_pool

WARM_DIR = "HANDOFF_TEST_WARM_DIR"
WARM_UP_SECONDS = 0.2


def _warm_up_and_note() -> None:
    began = time.time()
    time.sleep(WARM_UP_SECONDS)
    Path(os.environ[WARM_DIR], str(os.getpid())).write_text(f"{began} {time.time()}")


def _take_turn(warm_up, start: PoolStart) -> None:  # type: ignore[no-untyped-def]
    start.take_turn(warm_up)


def _never_warm() -> None:
    time.sleep(3600)


def _most_at_once(spans: list[tuple[float, float]]) -> int:
    edges = sorted([(began, 1) for began, _ in spans] + [(ended, -1) for _, ended in spans])
    running = most = 0
    for _, step in edges:
        running += step
        most = max(most, running)
    return most


def test_every_worker_is_warm_when_the_pool_is_handed_over_and_few_warmed_at_once(
    tmp_path, monkeypatch
):
    monkeypatch.setenv(WARM_DIR, str(tmp_path))
    workers = 3 * CONTEXTS_AT_ONCE
    pool = warm_pool(spawn(), workers, _take_turn, _warm_up_and_note, "test pool")
    try:
        notes = [path.read_text().split() for path in tmp_path.iterdir()]
    finally:
        pool.terminate()
        pool.join()
    assert len(notes) == workers
    spans = [(float(began), float(ended)) for began, ended in notes]
    assert 1 <= _most_at_once(spans) <= CONTEXTS_AT_ONCE


def test_a_pool_that_never_warms_up_is_a_worker_error_within_its_deadline():
    context = spawn()
    start = PoolStart(context.BoundedSemaphore(CONTEXTS_AT_ONCE), context.Semaphore(0))
    pool = context.Pool(processes=2, initializer=_take_turn, initargs=(_never_warm, start))
    try:
        began = time.monotonic()
        with pytest.raises(handoff.WorkerError, match="0 of 2 workers warmed up in 1 s"):
            start.wait_for(2, "test pool", seconds=1.0)
        assert time.monotonic() - began < 10
    finally:
        pool.terminate()
        pool.join()

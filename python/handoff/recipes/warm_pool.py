"""A multiprocessing.Pool whose workers all warm up before the first batch is timed.

Pool() returns as soon as it has started its processes, and each worker runs its initializer
(its CUDA context and kernels) on its own: a batch given to the pool straight away goes to the
few workers warm so far, while the rest are still making their contexts beside them. A warm row
times every worker warm, as the C++ pools' rows do, so the pool is handed over only once every
worker has warmed up. The workers take turns at it, a few at a time, as the C++ pools' untimed
starts do: the driver makes one context at a time, and a crowd waiting for it makes each slower."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.context import SpawnContext
from multiprocessing.pool import Pool
from typing import Any

from handoff.errors import WorkerError
from handoff.recipes.deadlines import DEADLINE_SECONDS

# patterns/src/independent_tasks/pool_session.hpp's contexts_at_once_untimed.
CONTEXTS_AT_ONCE = 4


@dataclass(frozen=True)
class PoolStart:
    turns: Any  # a BoundedSemaphore: CONTEXTS_AT_ONCE workers warm up at a time
    started: Any  # a Semaphore each worker releases once it has warmed up, or failed to

    def take_turn(self, warm_up: Callable[[], None]) -> None:
        try:
            with self.turns:
                warm_up()
        finally:
            self.started.release()

    def wait_for(self, workers: int, pool: str, seconds: float = DEADLINE_SECONDS) -> None:
        deadline = time.monotonic() + seconds
        for warm in range(workers):
            if not self.started.acquire(timeout=max(0.0, deadline - time.monotonic())):
                raise WorkerError(pool, f"{warm} of {workers} workers warmed up in {seconds:.0f} s")


def warm_pool(
    context: SpawnContext,
    workers: int,
    initializer: Callable[[Callable[[], None], PoolStart], None],
    warm_up: Callable[[], None],
    pool: str,
) -> Pool:
    """context.Pool(workers), each worker running initializer(warm_up, start), returned once
    every worker has warmed up; a pool that does not is terminated and its error raised."""
    start = PoolStart(context.BoundedSemaphore(CONTEXTS_AT_ONCE), context.Semaphore(0))
    started = context.Pool(processes=workers, initializer=initializer, initargs=(warm_up, start))
    try:
        start.wait_for(workers, pool)
    except BaseException:
        started.terminate()
        started.join()
        raise
    return started

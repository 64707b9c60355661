"""A multiprocessing.Pool whose workers have all warmed up before the first batch is timed.

Pool() returns as soon as it has started its processes, and each worker runs its initializer
(its CUDA context and kernels) on its own: a batch given to the pool straight away goes to the
few workers warm so far, while the rest are still making their contexts beside them. A warm row
times every worker warm, as the C++ pools' warm rows do, so the pool is handed over only once
every worker has warmed up."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.context import SpawnContext
from multiprocessing.pool import Pool
from typing import Any

from handoff.errors import WorkerError
from handoff.recipes.deadlines import DEADLINE_SECONDS


@dataclass(frozen=True)
class PoolStart:
    warmed: Any  # a Semaphore each worker releases once it has warmed up, or failed to

    def warm(self, warm_up: Callable[[], None]) -> None:
        try:
            warm_up()
        finally:
            self.warmed.release()

    def wait_for(self, workers: int, pool: str, seconds: float = DEADLINE_SECONDS) -> None:
        deadline = time.monotonic() + seconds
        for warm in range(workers):
            if not self.warmed.acquire(timeout=max(0.0, deadline - time.monotonic())):
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
    start = PoolStart(context.Semaphore(0))
    started = context.Pool(processes=workers, initializer=initializer, initargs=(warm_up, start))
    try:
        start.wait_for(workers, pool)
    except BaseException:
        started.terminate()
        started.join()
        raise
    return started

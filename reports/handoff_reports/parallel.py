"""Drawing many plots on every core: matplotlib spends its time in one thread per figure, and a
nightly dashboard has one figure per benchmark (over 300)."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")
SERIAL_BELOW = 16  # starting processes costs more than it saves on a handful of plots


def map_on_every_core(
    function: Callable[[Item], Result], items: Sequence[Item], serial_below: int = SERIAL_BELOW
) -> list[Result]:
    """function over items, in order; in forked worker processes when there are enough of both."""
    cores = len(os.sched_getaffinity(0))
    if len(items) < serial_below or cores < 2:
        return [function(item) for item in items]
    # fork: the workers inherit the loaded package and matplotlib's Agg backend, nothing is re-read.
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=cores, mp_context=context) as pool:
        return list(pool.map(function, items, chunksize=max(1, len(items) // (4 * cores))))

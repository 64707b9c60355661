"""Drawing many plots on every core: matplotlib spends its time in one thread per figure, and a
nightly dashboard has one figure per benchmark (over 300)."""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")
SERIAL_BELOW = 16  # starting processes costs more than it saves on a handful of plots


def _worker_signals() -> None:
    # A forked worker inherits the command's handlers (stops.py); the command alone answers a
    # stop, and ends its workers itself. Ctrl-C reaches the workers too (they share the terminal's
    # process group): ignored here, it is not one traceback per worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def map_on_every_core(
    function: Callable[[Item], Result], items: Sequence[Item], serial_below: int = SERIAL_BELOW
) -> list[Result]:
    """function over items, in order; in forked worker processes when there are enough of both."""
    cores = len(os.sched_getaffinity(0))
    if len(items) < serial_below or cores < 2:
        return [function(item) for item in items]
    # fork: the workers inherit the loaded package and matplotlib's Agg backend, nothing is re-read.
    context = multiprocessing.get_context("fork")
    # Leaving the block terminates the workers, also when a stop interrupts the map: a command
    # stopped in the middle of 300 plots ends at once instead of drawing the rest first.
    with context.Pool(cores, initializer=_worker_signals) as pool:
        return pool.map(function, items, chunksize=max(1, len(items) // (4 * cores)))

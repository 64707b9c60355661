"""Waits on workers with a deadline, as the C++ patterns wait (DESIGN.md, process model 2): a
worker that raised, died or went silent becomes a WorkerError naming it and how it ended, never a
hang. The articles' recipes wait without one; each use below is one of their bugs, fixed."""

from __future__ import annotations

import multiprocessing.pool
import os
import queue
import time
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from handoff.errors import WorkerError

T = TypeVar("T")
# Far beyond any hand-off the profiles measure (a 256 MiB tensor pickled through a pipe takes
# about a second): only a lost worker waits this long. Tests of a lost worker shorten it.
DEADLINE_SECONDS = float(os.environ.get("HANDOFF_WORKER_DEADLINE_SECONDS", "120"))
_POLL_SECONDS = 0.05


def pool_answer(result: multiprocessing.pool.AsyncResult[T], pool: str) -> T:
    """pool.map's answer. Pool replaces a worker that died and leaves its task waiting forever."""
    try:
        return result.get(DEADLINE_SECONDS)
    except multiprocessing.TimeoutError:
        raise WorkerError(pool, f"no answer in {DEADLINE_SECONDS:.0f} s: a worker died") from None
    except Exception as error:
        raise WorkerError(pool, f"a worker raised {type(error).__name__}: {error}") from error


def _ended(process: BaseProcess) -> WorkerError:
    return WorkerError(process.name or "worker", f"exited with status {process.exitcode}")


def get_from(source: Any, process: BaseProcess) -> Any:
    """source.get() (a multiprocessing queue), giving up when process has died."""
    deadline = time.monotonic() + DEADLINE_SECONDS
    while True:
        try:
            return source.get(timeout=_POLL_SECONDS)
        except queue.Empty:
            if not process.is_alive():
                raise _ended(process) from None
            if time.monotonic() > deadline:
                raise WorkerError(process.name, f"silent for {DEADLINE_SECONDS:.0f} s") from None


def receive(connection: Any, process: BaseProcess) -> Any:
    """connection.recv() (a pipe end), giving up when process has died."""
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not connection.poll(_POLL_SECONDS):
        if not process.is_alive():
            raise _ended(process)
        if time.monotonic() > deadline:
            raise WorkerError(process.name, f"silent for {DEADLINE_SECONDS:.0f} s")
    try:
        return connection.recv()
    except (EOFError, ConnectionResetError):
        # The end of the pipe came with the worker's exit (a worker killed with a request still
        # unread resets the connection rather than close it): say how it ended.
        process.join(1.0)
        raise _ended(process) from None


def end(process: BaseProcess, grace_seconds: float = 5.0) -> None:
    """Joins process; one that does not exit in time is terminated, then killed: none outlives
    its row. A worker that exited badly is a WorkerError, as a user's script would want to know."""
    process.join(grace_seconds)
    if process.is_alive():
        process.terminate()
        process.join(grace_seconds)
    if process.is_alive():
        process.kill()
        process.join()
    if process.exitcode not in (0, None):
        raise _ended(process)

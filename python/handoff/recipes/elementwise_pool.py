"""elementwise's pool recipes in Python (article 002): `with ProcessPoolExecutor() as executor:
results = list(executor.map(f, inputs))`, one element per task (chunksize 1), for the article's
three functions: some_function / compute (x * x, workload square), solve_linear_equation (-b / a
of each (a, b) pair, neg_b_over_a) and linear_equation (np.dot(w, x) + b, affine). Variant
python_cpu_map, beside the C++ cpu_map (one message per element to a process pool). The warm row
keeps one pool between runs; the cold row is the article's whole with-block per run: the pool
spawned, the map, and its shutdown (which the C++ cold row leaves outside its clock). Bugs of the
recipes, fixed:
- solve_linear_equation sleeps a second per task to simulate work: the sleep is dropped, or the
  rows would time it;
- linear_equation maps over zip(X, W, B), which pairs the i-th rows of X, W and B and is no part
  of Y = W X + b: a task is a column x_j of X (y_j = W x_j + b), with W and b handed to each
  worker once by the pool's initializer, as the C++ cpu_map sends them once per worker;
- executor.map waits without a deadline: the answers have one, and a worker that died
  (BrokenProcessPool) or raised is a WorkerError;
- the inputs are short literal lists: they are the C++ rows' seeded, never-zero values, as
  Python floats for the scalar functions as the article's lists hold them.
ProcessPoolExecutor() starts a worker per CPU; here it starts min(CPUs, 4), the C++ cpu_map's
pool (map_pool's max_map_workers), so that both rows of a point run the same pool. Workers are
spawned, never forked."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from handoff.arrays import Floats
from handoff.benchmark import Benchmark, Point, Workspace
from handoff.errors import WorkerError
from handoff.recipes import deadlines, elementwise
from handoff.recipes.context import spawn
from handoff.recipes.elementwise import Problem

MAX_WORKERS = 4
_POOL = "elementwise ProcessPoolExecutor"


def some_function(x: float) -> float:
    """The article's some_function (and compute's task ** 2)."""
    return x * x


def solve_linear_equation(params: tuple[float, float]) -> float:
    """The article's, without its time.sleep(1)."""
    a, b = params
    return -b / a


# A worker's W and b, set once by the pool's initializer.
_held_w: Floats | None = None
_held_bias: Floats | None = None


def hold_affine(w: Floats, bias: Floats) -> None:
    global _held_w, _held_bias
    _held_w, _held_bias = w, bias


def linear_equation(x: Floats) -> Floats:
    """The article's np.dot(w, x) + b, for one column x of X."""
    assert _held_w is not None and _held_bias is not None
    y: Floats = np.dot(_held_w, x) + _held_bias
    return y


def pool_workers() -> int:
    return min(os.cpu_count() or 1, MAX_WORKERS)


@dataclass
class MapCase:
    problem: Problem
    function: Callable[[Any], Any]
    tasks: list[Any]
    out: Floats
    cold: bool
    executor: ProcessPoolExecutor | None = None


def _executor(problem: Problem) -> ProcessPoolExecutor:
    if problem.workload != "affine":
        return ProcessPoolExecutor(max_workers=pool_workers(), mp_context=spawn())
    assert problem.bias is not None
    w = problem.first.reshape(problem.size, problem.size)
    return ProcessPoolExecutor(
        max_workers=pool_workers(),
        mp_context=spawn(),
        initializer=hold_affine,
        initargs=(w, problem.bias),
    )


def scalars(values: Floats) -> list[float]:
    """The values as Python floats, as the article's input lists hold them."""
    return cast(list[float], values.tolist())


def _tasks(problem: Problem) -> tuple[Callable[[Any], Any], list[Any]]:
    """The function and its inputs list, as the article builds them (untimed)."""
    if problem.workload == "square":
        return some_function, scalars(problem.first)
    assert problem.second is not None
    if problem.workload == "neg_b_over_a":
        return solve_linear_equation, list(
            zip(scalars(problem.first), scalars(problem.second), strict=True)
        )
    x = problem.second.reshape(problem.size, problem.size)
    return linear_equation, [np.ascontiguousarray(x[:, j]) for j in range(problem.size)]


def answers(
    executor: ProcessPoolExecutor, function: Callable[[Any], Any], tasks: Iterable[Any]
) -> list[Any]:
    """list(executor.map(function, tasks)) with a deadline; a worker that died or raised is a
    WorkerError."""
    try:
        return list(executor.map(function, tasks, timeout=deadlines.DEADLINE_SECONDS))
    except TimeoutError:
        raise WorkerError(
            _POOL, f"no answer in {deadlines.DEADLINE_SECONDS:.0f} s: a worker is stuck"
        ) from None
    except BrokenProcessPool as error:
        raise WorkerError(_POOL, f"a worker died: {error}") from None
    except Exception as error:
        raise WorkerError(_POOL, f"a worker raised {type(error).__name__}: {error}") from error


def shut_down(executor: ProcessPoolExecutor, grace_seconds: float = 5.0) -> None:
    """The with-block's shutdown, with a deadline. The pool's own thread stops and reaps its
    workers (reaping them here too would race it for their exit statuses); a worker that has not
    exited within grace_seconds is terminated, then killed (deadlines.end), so none outlives its
    row. A worker that exited badly is a WorkerError."""
    workers = list(executor._processes.values())
    # A Thread, which typeshed mistypes as the pool's _ThreadWakeup.
    manager = cast(threading.Thread | None, executor._executor_manager_thread)
    executor.shutdown(wait=False, cancel_futures=True)
    if manager is not None:
        manager.join(grace_seconds)
        if manager.is_alive():
            for worker in workers:
                with contextlib.suppress(WorkerError):
                    deadlines.end(worker, grace_seconds)
            manager.join(grace_seconds)
    for worker in workers:
        if worker.exitcode not in (0, None):
            raise WorkerError(worker.name, f"exited with status {worker.exitcode}")


def setup(workspace: Workspace, point: Point) -> MapCase:
    problem = elementwise.problem(point)
    function, tasks = _tasks(problem)
    cold = point["start"] == "cold"
    case = MapCase(problem, function, tasks, workspace.output(problem.output_count), cold)
    if not cold:
        case.executor = _executor(problem)
    return case


def _store(case: MapCase, results: list[Any]) -> None:
    if case.problem.workload == "affine":
        size = case.problem.size
        np.stack(results, axis=1, out=case.out.reshape(size, size))
    else:
        case.out[:] = results  # each double rounded once to float32


def run(case: MapCase) -> None:
    if not case.cold:
        assert case.executor is not None
        _store(case, answers(case.executor, case.function, case.tasks))
        return
    executor = _executor(case.problem)
    try:
        results = answers(executor, case.function, case.tasks)
    except BaseException:
        with contextlib.suppress(WorkerError):  # the row reports the map's failure
            shut_down(executor)
        raise
    shut_down(executor)
    _store(case, results)


def verify(case: MapCase) -> int:
    return case.problem.wrong(case.out)


def close(case: MapCase) -> None:
    if case.executor is not None:
        executor, case.executor = case.executor, None
        shut_down(executor)


def benchmarks(smoke: bool) -> list[Benchmark]:
    """One benchmark per workload (affine's size axis is n), each warm and cold."""
    return [
        Benchmark(
            pattern="elementwise",
            variant="python_cpu_map",
            description="The article's ProcessPoolExecutor.map in Python: one element (one "
            "column of X for the GEMM) per task to a spawned pool, results back in order",
            setup=setup,
            run=run,
            verify=verify,
            close=close,
            axes={
                "workload": [workload],
                elementwise.size_axis(workload): elementwise.pool_sizes(workload, smoke),
                "start": ["warm", "cold"],
            },
            # The claim that processes are slow to start is x²'s: the other workloads' cold rows
            # are the sweep's.
            default_axes=None
            if workload == "square"
            else {
                "workload": [workload],
                elementwise.size_axis(workload): elementwise.pool_sizes(workload, smoke),
                "start": ["warm"],
            },
            traffic=elementwise.traffic,
            recipe=True,
        )
        for workload in elementwise.WORKLOADS
    ]

"""queued_worker's recipe in Python (article 000, example 2): a worker process takes (a, b) pairs
by value from a JoinableQueue, adds them (on the host, standing in for the PyCUDA kernel) and
puts each sum on a results queue (queued_worker_cupy.py has the GPU form). Bugs of the recipe,
fixed:
- the worker breaks on the None sentinel without task_done(), so data_queue.join() waits forever:
  the sentinel is acknowledged too;
- the parent joins the worker before reading its results, and a process does not exit while its
  queue still holds unflushed items, so both wait forever: results are read first;
- every get has a deadline and a liveness check: a dead worker is a WorkerError;
- generate_data is used unseeded (and undefined in that example): inputs are the suite's seeded
  values, prepared before the clock starts, as the C++ rows' cases are.
The worker stays up between runs (the warm figure); close() sends the sentinel."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Any

from handoff import arrays
from handoff.arrays import Floats
from handoff.benchmark import Benchmark, Point, Workspace
from handoff.recipes.context import SEED_A, SEED_B, spawn
from handoff.recipes.deadlines import end, get_from


def gpu_worker(data_queue: Any, results_queue: Any) -> None:
    """The recipe's worker loop, the sentinel acknowledged."""
    while True:
        data = data_queue.get()
        if data is None:
            data_queue.task_done()
            break
        a, b = data
        results_queue.put(a + b)
        data_queue.task_done()


@dataclass
class QueueCase:
    worker: BaseProcess
    data_queue: Any
    results_queue: Any
    items: list[tuple[Floats, Floats]]
    out: Floats
    total: int


def setup(
    workspace: Workspace, point: Point, loop: Callable[[Any, Any], None] = gpu_worker
) -> QueueCase:
    """The worker started on `loop` (gpu_worker, or queued_worker_cupy's on the device), and the
    items prepared."""
    count, elements = int(point["items"]), int(point["elements"])
    context = spawn()
    data_queue, results_queue = context.JoinableQueue(), context.Queue()
    worker = context.Process(
        target=loop, args=(data_queue, results_queue), name="queued_worker gpu_worker"
    )
    worker.start()
    items = [
        (
            workspace.inputs(elements, SEED_A, index * elements),
            workspace.inputs(elements, SEED_B, index * elements),
        )
        for index in range(count)
    ]
    out = workspace.output(count * elements)
    return QueueCase(worker, data_queue, results_queue, items, out, count * elements)


def run(case: QueueCase) -> None:
    for a, b in case.items:
        case.data_queue.put((a, b))
    offset = 0
    for _ in case.items:
        c = get_from(case.results_queue, case.worker)
        case.out[offset : offset + c.size] = c
        offset += c.size


def verify(case: QueueCase) -> int:
    return arrays.wrong_elements(arrays.expected_vector_add(case.total, SEED_A, SEED_B), case.out)


def close(case: QueueCase) -> None:
    try:
        if case.worker.is_alive():
            case.data_queue.put(None)
        end(case.worker)
    finally:
        # The worker is gone: what no one will read is dropped rather than flushed into a pipe
        # with no reader, which could wait forever.
        for each in (case.data_queue, case.results_queue):
            each.cancel_join_thread()
            each.close()


def benchmark(smoke: bool) -> Benchmark:
    return Benchmark(
        pattern="queued_worker",
        variant="python_seed",
        description="The article's JoinableQueue worker in Python: (a, b) pairs by value to one "
        "spawned worker, sums back on a results queue (on the host, no PyCUDA)",
        setup=setup,
        run=run,
        verify=verify,
        close=close,
        axes={
            "compute": ["host"],
            "items": [10],
            "elements": [4099] if smoke else [1 << 20],
            "start": ["warm"],
        },
        traffic=lambda at: (3.0 * 4 * int(at["items"]) * int(at["elements"]), int(at["items"])),
        recipe=True,
    )

"""independent_tasks' recipe in Python (article 001, example 2, "the hundred independent tasks"):
a multiprocessing.Pool of one process per dataset maps the article's gpu_task over the datasets;
each task copies its dataset to GPU 0 (cp.asarray), sums its squares there
(cp.sum(data_gpu**2)) and brings the sum back (cp.asnumpy). Bugs of the recipe, fixed:
- np.random.rand draws unseeded float64 values in [0, 1), zeros included, that nothing can check:
  the datasets are the suite's seeded, never-zero float32 values, the C++ rows' (their seed, and
  one index range over all datasets), so that the row moves the bytes the C++ rows move;
- pool.map waits forever for the task of a worker that died: the answer has a deadline, and a
  worker that raised is a WorkerError;
- the results are printed and dropped: each sum is written to the row's output, which the driver
  poisons before each run, and checked against the double-precision sum of squares of its
  dataset, within the suite's relative 1e-5.
Kept as written: a pool of a process per dataset, each with its own CUDA context (the seed's
point; few_workers is the C++ fix), and the sums as CuPy computes them, in the datasets' float32
(within the tolerance at these sizes). The workers are spawned, as everywhere in the suite (the
parent may have CUDA up: it counted the GPUs), and each makes its context and CuPy's kernels when
it starts (one gpu_task on a small dataset), as the C++ seed's workers make their contexts; the
pool is used once every worker has (warm_pool.py), so that the warm rows time a hundred warm
workers and no context being made beside them. The device's sum is not
poisoned: CuPy's reduction writes it whole on every call, and raises when its launch fails. The
pool stays up between runs (the warm figure)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from multiprocessing.pool import Pool

import numpy as np

from handoff import arrays, availability
from handoff.arrays import Floats
from handoff.benchmark import Benchmark, Point, Workspace
from handoff.recipes.context import spawn
from handoff.recipes.cupy_device import cupy, prepare_pool_worker, raise_worker_start_error
from handoff.recipes.deadlines import pool_answer
from handoff.recipes.warm_pool import warm_pool

# patterns/src/independent_tasks/task_case.cpp's datasets_seed, so that the datasets are the
# C++ rows'.
DATASETS_SEED = 0x5EED001
WARM_UP_ELEMENTS = 1027


def gpu_task(data: Floats) -> Floats:
    """The article's gpu_task, as written: the sum of squares on GPU 0, back as a NumPy scalar."""
    raise_worker_start_error()
    cp = cupy()
    with cp.cuda.Device(0):
        data_gpu = cp.asarray(data)
        result = cp.sum(data_gpu**2)
        host: Floats = cp.asnumpy(result)
        return host


def warm_up_task() -> None:
    gpu_task(arrays.seeded(WARM_UP_ELEMENTS, DATASETS_SEED))


@dataclass
class TaskCase:
    pool: Pool
    datasets: list[Floats]
    sums: Floats  # the pool's answers, in dataset order
    expected: list[float]


def sum_of_squares(values: Floats) -> float:
    """Exactly rounded: a float32's square is exact in float64, and fsum adds them exactly."""
    wide = values.astype(np.float64)
    return math.fsum(wide * wide)


def setup(workspace: Workspace, point: Point) -> TaskCase:
    count, elements = int(point["datasets"]), int(point["elements"])
    datasets = [
        workspace.inputs(elements, DATASETS_SEED, index * elements) for index in range(count)
    ]
    pool = warm_pool(spawn(), count, prepare_pool_worker, warm_up_task, "independent_tasks pool")
    expected = [sum_of_squares(values) for values in datasets]
    return TaskCase(pool, datasets, workspace.output(count), expected)


def run(case: TaskCase) -> None:
    results = pool_answer(case.pool.map_async(gpu_task, case.datasets), "independent_tasks pool")
    case.sums[:] = np.asarray(results, dtype=np.float32)


def verify(case: TaskCase) -> int:
    return sum(
        arrays.wrong_reduction(expected, float(actual))
        for expected, actual in zip(case.expected, case.sums, strict=True)
    )


def close(case: TaskCase) -> None:
    # What the recipe's `with Pool(...)` does on leaving: terminate, which a lost task cannot hang.
    case.pool.terminate()
    case.pool.join()


def benchmark(smoke: bool) -> Benchmark:
    return Benchmark(
        pattern="independent_tasks",
        variant="python_seed",
        description="The article's hundred independent tasks in Python: a spawned "
        "multiprocessing.Pool of a process per dataset, each task's sum of squares on GPU 0 "
        "with CuPy (cp.asarray, cp.sum, cp.asnumpy)",
        setup=setup,
        run=run,
        verify=verify,
        close=close,
        axes={
            "compute": ["device"],
            "datasets": [10] if smoke else [100],
            "elements": [1027] if smoke else [10_000],
            "start": ["warm"],
        },
        traffic=lambda at: (
            4.0 * int(at["datasets"]) * int(at["elements"]),
            float(int(at["datasets"]) * int(at["elements"])),
        ),
        recipe=True,
        cpu=False,
        unavailable=availability.needs("cupy"),
        # Its hundred workers' contexts are made and ended in every process, which the main
        # job's ten minutes do not hold beside the C++ seed's; the main job decides the seed's
        # claims on the C++ seed, which starts the same pool once per process.
        sweep_only=True,
    )

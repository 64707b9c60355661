"""pool_prep's recipe in Python on the GPU (article 000, example 1): each spawned worker of a
multiprocessing.Pool generates a chunk's a and b, allocates a, b and c on the device, copies a and
b there, runs the article's add kernel, copies c back and returns it; the parent concatenates the
chunks. PyCUDA is on none of the suite's machines: the kernel source is compiled with
cupy.RawKernel, the nearest thing to SourceModule, and each PyCUDA call has its CuPy counterpart
(cupy_device.py). Bugs of the recipe, fixed:
- pycuda.autoinit makes a CUDA context in the parent when it imports the module, and Linux's
  default fork start hands that context to the workers, which CUDA does not support: the
  workers are spawned, and each makes its own context;
- the kernel has no bound: with a chunk size that is no multiple of its 1024-thread blocks, the
  last block writes past the end of c. The kernel takes the size and writes c[i] for i < n;
- np.random.rand draws unseeded values in [0, 1), zeros included, that nothing can check: the
  chunk's inputs are the suite's seeded, never-zero values of its global indices;
- total_size // chunk_size chunks drop the remainder of an uneven size: chunks are cut as
  np.array_split cuts them, as the C++ rows do;
- pool.map waits forever for the task of a worker that died: the answer has a deadline;
- the results are concatenated into the row's output, which the driver poisons before each run.
Besides, as the C++ seed's workers do, each worker makes its context and loads the kernel when it
starts (pycuda.autoinit would make it when the worker imports the module), so that the warm rows
time no context; and c's device allocation is poisoned before the kernel writes it, inside the
timed task: the driver's poison reaches host arrays only. The pool stays up between runs: this is
the warm figure, beside the C++ seed's warm rows."""

from __future__ import annotations

import numpy as np

from handoff import arrays, availability
from handoff.arrays import Floats
from handoff.benchmark import Benchmark, Point, Workspace
from handoff.recipes import pool_prep
from handoff.recipes.context import SEED_A, SEED_B, spawn
from handoff.recipes.cupy_device import (
    launch_add,
    mem_alloc,
    poison,
    prepare_pool_worker,
    raise_worker_start_error,
    warm_up_add,
)
from handoff.recipes.deadlines import pool_answer
from handoff.recipes.pool_prep import PoolCase
from handoff.recipes.warm_pool import warm_pool


def process_chunk(extent: tuple[int, int]) -> Floats:
    """The worker's step: the recipe's generate_data and process_chunk, for one chunk."""
    raise_worker_start_error()
    offset, count = extent
    a = arrays.seeded(count, SEED_A, offset)
    b = arrays.seeded(count, SEED_B, offset)
    c = np.zeros_like(a)
    a_gpu, b_gpu, c_gpu = mem_alloc(count), mem_alloc(count), mem_alloc(count)
    a_gpu.set(a)  # cuda.memcpy_htod(a_gpu, a)
    b_gpu.set(b)
    poison(c_gpu)
    launch_add(a_gpu, b_gpu, c_gpu)
    c_gpu.get(out=c)  # cuda.memcpy_dtoh(c, c_gpu): back once the kernel is done
    return c


def setup(workspace: Workspace, point: Point) -> PoolCase:
    chunks, elements, workers = int(point["chunks"]), int(point["elements"]), int(point["workers"])
    total = chunks * elements
    pool = warm_pool(spawn(), workers, prepare_pool_worker, warm_up_add, "pool_prep pool")
    return PoolCase(pool, pool_prep.chunk_extents(total, chunks), workspace.output(total), total)


def run(case: PoolCase) -> None:
    results = pool_answer(case.pool.map_async(process_chunk, case.extents), "pool_prep pool")
    np.concatenate(results, out=case.out)


def benchmarks(smoke: bool) -> list[Benchmark]:
    """One benchmark per warm point of the C++ seed (chunks, elements, workers), which are no
    cross product; a smoke run has the C++ smoke point."""
    points: list[tuple[int, int, int]] = (
        [(3, 1027, 2)]
        if smoke
        else [(10, 1 << 16, 4), (10, 1 << 20, 2), (10, 1 << 20, 4), (10, 1 << 20, 8)]
    )
    return [
        Benchmark(
            pattern="pool_prep",
            variant="python_seed_cupy",
            description="The article's multiprocessing.Pool in Python on the GPU: spawned workers "
            "each generate a chunk, add it with the article's kernel (cupy.RawKernel standing in "
            "for PyCUDA) through fresh device allocations and pageable copies, the parent "
            "concatenates",
            setup=setup,
            run=run,
            verify=pool_prep.verify,
            close=pool_prep.close,
            axes={
                "chunks": [chunks],
                "elements": [elements],
                "workers": [workers],
                "start": ["warm"],
            },
            traffic=lambda at: (3.0 * 4 * int(at["chunks"]) * int(at["elements"]), 1.0),
            recipe=True,
            cpu=False,
            unavailable=availability.needs("cupy"),
            # The claims' point (2^20 elements on 4 workers) is the main job's.
            sweep_only=(elements, workers) != (1 << 20, 4),
        )
        for chunks, elements, workers in points
    ]

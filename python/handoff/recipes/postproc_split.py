"""postproc_split's recipe in Python (article 000, example 3): the GPU computes c = a + b and
copies it back whole, np.array_split cuts c into chunks, a multiprocessing.Pool sums each chunk
(postprocess: np.sum) and the parent adds the partial sums. The GPU step runs on the host, as the
C++ target:host rows run it: c = a + b is computed at set-up (where the C++ case computes it) and
the timed run copies it back into a poisoned buffer, standing in for memcpy_dtoh
(postproc_split_cupy.py has the GPU form, at target:device). Bugs of the recipe, fixed:
- generate_data and add_kernel are used but not defined in that example, and generate_data's
  np.random.rand draws unseeded values in [0, 1), zeros included, that nothing can check: a and b
  are the suite's seeded, never-zero values, with the C++ rows' seeds;
- c.size // chunk_size sections is 0 for a c smaller than one chunk, and np.array_split(c, 0)
  raises: at least one section, as the C++ rows' sections_for_chunk_size;
- pool.map waits forever for the chunk of a worker that died: the answer has a deadline, and a
  dead worker is a WorkerError;
- final_result is computed and dropped: the sum is checked against math.fsum of the C++ oracle's
  c, and the copied-back c element by element.
Not a bug: the workers' np.sum accumulates the float32 chunk in float32, but NumPy's pairwise sum
stays well inside the suite's relative 1e-5 (4e-7 at these sizes), so it is kept as written. The
kernel's missing i < n guard (10M is no multiple of its 1024-thread blocks) is the GPU row's to
fix: this one launches no kernel. The pool stays up between runs (the warm figure); the
recipe's pool per script is the cold figure, not measured here."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.pool import Pool
from typing import Any

import numpy as np

from handoff import arrays
from handoff.arrays import Floats
from handoff.benchmark import Benchmark, Point, Workspace
from handoff.recipes.context import spawn
from handoff.recipes.deadlines import pool_answer

# patterns/src/postproc_split/split_case.cpp's seeds of a and b, so that c is the C++ rows' c.
SEED_A = 0x5011A
SEED_B = 0x5011B
CHUNK_ELEMENTS = 1_000_000  # the recipe's chunk_size


def postprocess(data: Floats) -> np.float32:
    """The recipe's worker step, as written."""
    total: np.float32 = np.sum(data)
    return total


def sections(count: int, chunk_elements: int = CHUNK_ELEMENTS) -> int:
    """The recipe's c.size // chunk_size, never 0."""
    return max(1, count // chunk_elements)


@dataclass
class SplitCase:
    pool: Pool
    chunks: int
    device_c: Any  # c as the GPU step left it: on the host here, a CuPy array at target:device
    host_c: Floats  # the copy back's destination (np.zeros_like(a) in the recipe), poisoned
    out: Floats  # the final sum (one float32, which sum() of the workers' float32 gives)
    expected_c: Floats
    expected_sum: float
    # The pool's step, pickled by name; a test plants one that dies.
    step: Callable[[Floats], np.float32] = postprocess


def add_on_host(a: Floats, b: Floats) -> Floats:
    """The GPU step on the host: NumPy's add (c = a + b), checked against the native oracle."""
    c: Floats = a + b
    return c


def setup(
    workspace: Workspace, point: Point, gpu_step: Callable[[Floats, Floats], Any] = add_on_host
) -> SplitCase:
    """The case, with c = a + b computed by gpu_step (add_on_host, or postproc_split_cupy's on
    the device) and left where it computed it."""
    count, chunks, workers = int(point["elements"]), int(point["chunks"]), int(point["workers"])
    device_c = gpu_step(workspace.inputs(count, SEED_A), workspace.inputs(count, SEED_B))
    expected_c = arrays.expected_vector_add(count, SEED_A, SEED_B)
    # Exactly rounded in float64, independent of the recipe's float32 pairwise sums.
    expected_sum = math.fsum(expected_c.astype(np.float64))
    host_c, out = workspace.output(count), workspace.output(1)
    pool = spawn().Pool(processes=workers)
    return SplitCase(pool, chunks, device_c, host_c, out, expected_c, expected_sum)


def run(case: SplitCase) -> None:
    np.copyto(case.host_c, case.device_c)  # the recipe's cuda.memcpy_dtoh(c, c_gpu)
    sum_chunks(case)


def sum_chunks(case: SplitCase) -> None:
    """The recipe after the copy back: c cut into chunks, summed by the pool, partials added."""
    pieces = np.array_split(case.host_c, case.chunks)
    results = pool_answer(case.pool.map_async(case.step, pieces), "postproc_split pool")
    case.out[0] = sum(results)  # the recipe's final_result


def verify(case: SplitCase) -> int:
    wrong = arrays.wrong_elements(case.expected_c, case.host_c)
    return wrong + arrays.wrong_reduction(case.expected_sum, float(case.out[0]))


def close(case: SplitCase) -> None:
    # What the recipe's `with Pool(...)` does on leaving: terminate, which a lost task cannot hang.
    case.pool.terminate()
    case.pool.join()


def sweep_points(smoke: bool) -> list[tuple[int, int, int]]:
    """The C++ points (elements, chunks, workers), which are no cross product: 2^20 and 10M
    elements on 4 workers, then 10M on 2 and 8, the chunks the recipe's chunk_size cuts. A smoke
    run has the C++ smoke point: a small size cut unevenly into more chunks than workers."""
    if smoke:
        return [(100_003, 7, 4)]
    return [
        (1 << 20, sections(1 << 20), 4),
        (10_000_000, sections(10_000_000), 4),
        (10_000_000, sections(10_000_000), 2),
        (10_000_000, sections(10_000_000), 8),
    ]


def in_main_job(elements: int, workers: int) -> bool:
    """The claims' point (10M elements on 4 workers) is the main job's; the rest is the sweep's."""
    return (elements, workers) == (10_000_000, 4)


def benchmarks(smoke: bool) -> list[Benchmark]:
    """One benchmark per C++ point (sweep_points)."""
    return [
        Benchmark(
            pattern="postproc_split",
            variant="python_seed",
            description="The article's post-processing split in Python: the GPU step (c = a + b "
            "and its copy back) on the host with NumPy (target:host, no PyCUDA), then "
            "np.array_split chunks summed by a spawned multiprocessing.Pool",
            setup=setup,
            run=run,
            verify=verify,
            close=close,
            axes={
                "target": ["host"],
                "elements": [elements],
                "chunks": [chunks],
                "workers": [workers],
                "start": ["warm"],
            },
            traffic=lambda at: (4.0 * int(at["elements"]), float(at["elements"])),
            recipe=True,
            sweep_only=not in_main_job(elements, workers),
        )
        for elements, chunks, workers in sweep_points(smoke)
    ]

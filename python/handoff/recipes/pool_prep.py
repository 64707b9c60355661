"""pool_prep's recipe in Python (articles 000 and 001, example 1): a multiprocessing.Pool whose
workers each generate a chunk's a and b and add them, and a parent that concatenates the
chunks. The add stands in on the host for the PyCUDA kernel (a GPU row is left for the machines
with PyCUDA). Bugs of the recipe, fixed:
- np.random.rand draws unseeded values in [0, 1), zeros included, that nothing can check: the
  chunk's inputs are the suite's seeded, never-zero values of its global indices;
- total_size // chunk_size chunks drop the remainder of an uneven size: chunks are cut as
  np.array_split cuts them, as the C++ rows do;
- pool.map waits forever for the task of a worker that died: the answer has a deadline;
- the results are concatenated into the row's output, which the driver poisons before each run.
The pool stays up between runs: this is the warm figure, as the C++ warm rows'."""

from __future__ import annotations

from dataclasses import dataclass
from multiprocessing.pool import Pool

import numpy as np

from handoff import arrays
from handoff.arrays import Floats
from handoff.benchmark import Benchmark, Point, Workspace
from handoff.recipes.context import SEED_A, SEED_B, spawn
from handoff.recipes.deadlines import pool_answer


def process_chunk(extent: tuple[int, int]) -> Floats:
    """The worker's step: the recipe's generate_data and add, for one chunk."""
    offset, count = extent
    a = arrays.seeded(count, SEED_A, offset)
    b = arrays.seeded(count, SEED_B, offset)
    c: Floats = a + b
    return c


def chunk_extents(total: int, chunks: int) -> list[tuple[int, int]]:
    """(offset, count) of each piece, as np.array_split cuts total elements."""
    base, longer = divmod(total, chunks)
    counts = [base + (1 if index < longer else 0) for index in range(chunks)]
    offsets = np.cumsum([0, *counts[:-1]]).tolist()
    return list(zip(offsets, counts, strict=True))


@dataclass
class PoolCase:
    pool: Pool
    extents: list[tuple[int, int]]
    out: Floats
    total: int


def setup(workspace: Workspace, point: Point) -> PoolCase:
    chunks, elements, workers = int(point["chunks"]), int(point["elements"]), int(point["workers"])
    total = chunks * elements
    pool = spawn().Pool(processes=workers)
    return PoolCase(pool, chunk_extents(total, chunks), workspace.output(total), total)


def run(case: PoolCase) -> None:
    results = pool_answer(case.pool.map_async(process_chunk, case.extents), "pool_prep pool")
    np.concatenate(results, out=case.out)


def verify(case: PoolCase) -> int:
    return arrays.wrong_elements(arrays.expected_vector_add(case.total, SEED_A, SEED_B), case.out)


def close(case: PoolCase) -> None:
    # What the recipe's `with Pool(...)` does on leaving: terminate, which a lost task cannot hang.
    case.pool.terminate()
    case.pool.join()


def benchmark(smoke: bool) -> Benchmark:
    axes: dict[str, list[int | str]] = (
        {"chunks": [3], "elements": [1027], "workers": [2], "start": ["warm"]}
        if smoke
        else {"chunks": [10], "elements": [1 << 20], "workers": [4], "start": ["warm"]}
    )
    return Benchmark(
        pattern="pool_prep",
        variant="python_seed",
        description="The article's multiprocessing.Pool in Python: spawned workers generate and "
        "add each chunk (on the host, no PyCUDA), the parent concatenates",
        setup=setup,
        run=run,
        verify=verify,
        close=close,
        axes=axes,
        traffic=lambda at: (3.0 * 4 * int(at["chunks"]) * int(at["elements"]), 1.0),
        recipe=True,
    )

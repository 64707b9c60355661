"""The articles' recipes whose GPU step runs on CuPy, as rows beside the C++ ones: each is skipped,
with its reason, where CuPy or a GPU is missing (availability.needs)."""

from __future__ import annotations

from handoff.benchmark import Benchmark
from handoff.recipes import (
    independent_tasks,
    multi_gpu,
    pool_prep_cupy,
    postproc_split_cupy,
    queued_worker_cupy,
)


def cupy_benchmarks(smoke: bool, machine_gpus: int | None = None) -> list[Benchmark]:
    """machine_gpus: the GPUs multi_gpu's rows are laid out for (else the GPUs CuPy sees)."""
    return [
        *pool_prep_cupy.benchmarks(smoke),
        queued_worker_cupy.benchmark(smoke),
        *postproc_split_cupy.benchmarks(smoke),
        independent_tasks.benchmark(smoke),
        *multi_gpu.benchmarks(smoke, machine_gpus),
    ]

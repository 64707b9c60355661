"""The articles' recipes in Python, as rows beside the C++ ones: those that need no GPU library
run everywhere; those that need CuPy (or PyTorch) and a GPU are skipped, with the reason, where the
machine lacks them."""

from __future__ import annotations

from handoff.benchmark import Benchmark
from handoff.recipes import pool_prep, postproc_split, queued_worker, tensor_transfer
from handoff.recipes.cupy_recipes import cupy_benchmarks


def seed_benchmarks(smoke: bool = False) -> list[Benchmark]:
    return [
        pool_prep.benchmark(smoke),
        queued_worker.benchmark(smoke),
        tensor_transfer.benchmark("queue", smoke),
        tensor_transfer.benchmark("pipe", smoke),
        *postproc_split.benchmarks(smoke),
        *cupy_benchmarks(smoke),
    ]

"""The articles' multiprocessing recipes that need no GPU library, as rows beside the C++ ones."""

from __future__ import annotations

from handoff.benchmark import Benchmark
from handoff.recipes import pool_prep, postproc_split, queued_worker, tensor_transfer
from handoff.recipes.elementwise_pool import benchmarks as cpu_map_benchmarks
from handoff.recipes.elementwise_torch import benchmarks as torch_elementwise_benchmarks


def seed_benchmarks(smoke: bool = False) -> list[Benchmark]:
    return [
        pool_prep.benchmark(smoke),
        queued_worker.benchmark(smoke),
        tensor_transfer.benchmark("queue", smoke),
        tensor_transfer.benchmark("pipe", smoke),
        *postproc_split.benchmarks(smoke),
        # Article 002: the pool recipe, and PyTorch's rows, skipped with the reason where torch
        # or a GPU is missing.
        *cpu_map_benchmarks(smoke),
        *torch_elementwise_benchmarks(smoke),
    ]

"""The articles' recipes in Python, as rows beside the C++ ones: those that need no GPU library
run everywhere; those that need CuPy (or PyTorch) and a GPU are skipped, with the reason, where the
machine lacks them."""

from __future__ import annotations

from handoff.benchmark import Benchmark
from handoff.recipes import pool_prep, postproc_split, queued_worker, tensor_transfer
from handoff.recipes.cuda_ipc_transfer import benchmark as cuda_ipc_benchmark
from handoff.recipes.cupy_recipes import cupy_benchmarks
from handoff.recipes.elementwise_pool import benchmarks as cpu_map_benchmarks
from handoff.recipes.elementwise_torch import benchmarks as torch_elementwise_benchmarks
from handoff.recipes.shm_transfer import benchmark as shm_benchmark


def seed_benchmarks(smoke: bool = False) -> list[Benchmark]:
    return [
        pool_prep.benchmark(smoke),
        queued_worker.benchmark(smoke),
        tensor_transfer.benchmark("queue", smoke),
        tensor_transfer.benchmark("pipe", smoke),
        *postproc_split.benchmarks(smoke),
        *cupy_benchmarks(smoke),
        # Article 002: the pool recipe, and PyTorch's rows, skipped with the reason where torch
        # or a GPU is missing.
        *cpu_map_benchmarks(smoke),
        *torch_elementwise_benchmarks(smoke),
        # Article 003 with PyTorch: a variant's description is its first benchmark's, so its host
        # form comes first; its device form is skipped with the reason where torch or a GPU is
        # missing.
        shm_benchmark(smoke, "host"),
        tensor_transfer.benchmark("queue", smoke, "device"),
        tensor_transfer.benchmark("pipe", smoke, "device"),
        shm_benchmark(smoke, "device"),
        cuda_ipc_benchmark(smoke),
    ]

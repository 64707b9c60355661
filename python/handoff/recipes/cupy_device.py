"""The GPU step of the recipes on CuPy, imported only when a recipe runs, so that a machine without
CuPy still imports the recipes and skips their benchmarks (availability.needs).

Article 000 writes its GPU step with PyCUDA, which none of the suite's machines has (the GPU
machine has CuPy and cannot install packages). Its kernel source is compiled with cupy.RawKernel,
the nearest thing to SourceModule, and each PyCUDA call it makes has a CuPy counterpart here,
named in its docstring."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from handoff.recipes.warm_pool import PoolStart

FLOAT_BYTES = 4
POISON_BYTE = 0xFF  # arrays.poison's pattern: every byte 0xFF, a NaN

# Article 000's kernel with two changes: extern "C", which SourceModule adds and RawKernel does
# not, so that the kernel keeps its name; and the bound n, without which the last block writes
# (and reads) past the end of the arrays whenever the size is no multiple of the block.
ADD_SOURCE = r"""
extern "C" __global__ void add(float *a, float *b, float *c, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
"""
ADD_BLOCK = 1024  # the article's block=(1024, 1, 1)

# An error met while a pool worker started, kept for its tasks to raise (prepare_pool_worker).
_worker_start_error: Exception | None = None


def cupy() -> Any:
    return importlib.import_module("cupy")


def int_argument(value: int) -> np.int32:
    """A kernel's int parameter: CuPy passes a Python int as 64 bits, a float as a double."""
    if not 0 <= value < 2**31:
        raise ValueError(f"{value} does not fit a kernel's int")
    return np.int32(value)


@functools.cache
def add_kernel() -> Any:
    """SourceModule(...).get_function("add"); CuPy compiles it on first use on each device."""
    return cupy().RawKernel(ADD_SOURCE, "add")


def launch_add(a_gpu: Any, b_gpu: Any, c_gpu: Any) -> None:
    """add_kernel(a_gpu, b_gpu, c_gpu, block=(1024, 1, 1), grid=(blocks, 1)), given its size,
    on the current device and stream."""
    count = int(c_gpu.size)
    blocks = (count + ADD_BLOCK - 1) // ADD_BLOCK
    add_kernel()((blocks,), (ADD_BLOCK,), (a_gpu, b_gpu, c_gpu, int_argument(count)))


def mem_alloc(count: int) -> Any:
    """cuda.mem_alloc of count floats: an allocation of its own (cudaMalloc, freed with the
    array), as PyCUDA's is, rather than a block from CuPy's memory pool."""
    cp = cupy()
    memory = cp.cuda.Memory(count * FLOAT_BYTES)
    return cp.ndarray((count,), dtype=cp.float32, memptr=cp.cuda.MemoryPointer(memory, 0))


def poison(device_array: Any) -> None:
    """Fills a device array with the poison on the current stream, ahead of the kernel that
    writes it: the driver poisons host arrays only, and a new allocation can hold an earlier
    run's result, which would pass verification if the kernel left it."""
    stream = cupy().cuda.get_current_stream()
    device_array.data.memset_async(POISON_BYTE, device_array.nbytes, stream)


def warm_up_add() -> None:
    """An add of one element: the CUDA context made and the kernel loaded, as pycuda.autoinit
    and SourceModule do when a recipe's process imports its module."""
    cp = cupy()
    ones = cp.ones(1, dtype=cp.float32)
    launch_add(ones, ones, cp.empty_like(ones))
    cp.cuda.Device().synchronize()


def prepare_pool_worker(warm_up: Callable[[], None], start: PoolStart) -> None:
    """A pool's initializer (warm_pool.py): the worker warms up before it takes a task, as the
    C++ workers make their contexts when they start. A Pool replaces a worker whose
    initializer raised, again and again, so the error is kept for each task to raise instead
    (raise_worker_start_error)."""
    global _worker_start_error
    try:
        start.warm(warm_up)
    except Exception as error:
        _worker_start_error = error


def raise_worker_start_error() -> None:
    if _worker_start_error is not None:
        raise _worker_start_error

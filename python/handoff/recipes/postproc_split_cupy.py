"""postproc_split's recipe in Python on the GPU (article 000, example 3): a, b and c are allocated
on the device, a and b copied there and the article's add kernel computes c = a + b; c is copied
back whole, np.array_split cuts it into chunks, a spawned multiprocessing.Pool sums each chunk
(postprocess: np.sum) and the parent adds the partial sums. PyCUDA is on none of the suite's
machines: the kernel source is compiled with cupy.RawKernel, the nearest thing to SourceModule,
and each PyCUDA call has its CuPy counterpart (cupy_device.py). As in the C++ target:device rows,
c is computed on the device at set-up, and the timed run is the copy back (memcpy_dtoh into the
row's poisoned host buffer) and the split; the device's c is not written by a run, so only the
host buffers need the poison. Bugs of the recipe, fixed (postproc_split.py's, and those of its
GPU step):
- pycuda.autoinit makes a CUDA context in the parent when it imports the module, and Linux's
  default fork start hands it to the pool's workers, which CUDA does not support: the workers are
  spawned (they use no CUDA);
- the kernel has no bound: 10M is no multiple of its 1024-thread blocks, so the last block writes
  past the end of c. The kernel takes the size and writes c[i] for i < n;
- generate_data and add_kernel are used but not defined in that example, and generate_data's
  np.random.rand draws unseeded values in [0, 1), zeros included, that nothing can check: a and b
  are the suite's seeded, never-zero values, with the C++ rows' seeds;
- c.size // chunk_size sections is 0 for a c smaller than one chunk, and np.array_split(c, 0)
  raises: at least one section, as the C++ rows' sections_for_chunk_size;
- pool.map waits forever for the chunk of a worker that died: the answer has a deadline, and a
  dead worker is a WorkerError;
- final_result is computed and dropped: the sum is checked against math.fsum of the C++ oracle's
  c, and the copied-back c element by element.
The pool stays up between runs (the warm figure)."""

from __future__ import annotations

import functools
from typing import Any

from handoff import availability
from handoff.arrays import Floats
from handoff.benchmark import Benchmark
from handoff.recipes import postproc_split
from handoff.recipes.cupy_device import cupy, launch_add, mem_alloc, poison
from handoff.recipes.postproc_split import SplitCase


def add_on_device(a: Floats, b: Floats) -> Any:
    """The recipe's GPU step: a, b and c allocated on the device (cuda.mem_alloc), a and b
    copied there (cuda.memcpy_htod), the kernel run; c stays on the device."""
    a_gpu, b_gpu, c_gpu = mem_alloc(a.size), mem_alloc(b.size), mem_alloc(a.size)
    a_gpu.set(a)
    b_gpu.set(b)
    poison(c_gpu)
    launch_add(a_gpu, b_gpu, c_gpu)
    cupy().cuda.Device().synchronize()
    return c_gpu


def run(case: SplitCase) -> None:
    case.device_c.get(out=case.host_c)  # cuda.memcpy_dtoh(c, c_gpu): back before the split
    postproc_split.sum_chunks(case)


def benchmarks(smoke: bool) -> list[Benchmark]:
    """One benchmark per C++ point (postproc_split.sweep_points), at target:device."""
    return [
        Benchmark(
            pattern="postproc_split",
            variant="python_seed_cupy",
            description="The article's post-processing split in Python on the GPU: c = a + b by "
            "the article's kernel (cupy.RawKernel standing in for PyCUDA) at set-up, then its "
            "copy back and np.array_split chunks summed by a spawned multiprocessing.Pool",
            setup=functools.partial(postproc_split.setup, gpu_step=add_on_device),
            run=run,
            verify=postproc_split.verify,
            close=postproc_split.close,
            axes={
                "target": ["device"],
                "elements": [elements],
                "chunks": [chunks],
                "workers": [workers],
                "start": ["warm"],
            },
            traffic=lambda at: (4.0 * int(at["elements"]), float(at["elements"])),
            recipe=True,
            cpu=False,
            unavailable=availability.needs("cupy"),
            sweep_only=not postproc_split.in_main_job(elements, workers),
        )
        for elements, chunks, workers in postproc_split.sweep_points(smoke)
    ]

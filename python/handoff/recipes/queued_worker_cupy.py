"""queued_worker's recipe in Python on the GPU (article 000, example 2): one spawned worker takes
(a, b) pairs by value from a JoinableQueue, allocates a, b and c on the device, copies a and b
there, runs the article's add kernel, copies c back and puts it on a results queue. PyCUDA is on
none of the suite's machines: the kernel source is compiled with cupy.RawKernel, the nearest thing
to SourceModule, and each PyCUDA call has its CuPy counterpart (cupy_device.py). Bugs of the
recipe, fixed (queued_worker.py's, and those of its GPU step):
- pycuda.autoinit makes a CUDA context in the parent when it imports the module, and Linux's
  default fork start hands it to the worker, which CUDA does not support: the worker is spawned
  and makes its own;
- the kernel has no bound: with an item size that is no multiple of its 1024-thread blocks (the
  recipe's 1,000,000 is none), the last block writes past the end of c. The kernel takes the size
  and writes c[i] for i < n;
- the worker breaks on the None sentinel without task_done(), so data_queue.join() waits forever:
  the sentinel is acknowledged too;
- the parent joins the worker before reading its results, and a process does not exit while its
  queue still holds unflushed items, so both wait forever: results are read first;
- every get has a deadline and a liveness check: a dead worker is a WorkerError;
- generate_data is used unseeded (and undefined in that example): inputs are the suite's seeded
  values, prepared before the clock starts, as the C++ rows' cases are.
Besides, the worker makes its context and loads the kernel when it starts, as pycuda.autoinit
would when it imports the module, so that the warm rows time no context; and c's device
allocation is poisoned before the kernel writes it, inside the timed loop: the driver's poison
reaches host arrays only. The worker stays up between runs (the warm figure)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from handoff import availability
from handoff.benchmark import Benchmark
from handoff.recipes import queued_worker
from handoff.recipes.cupy_device import launch_add, mem_alloc, poison, warm_up_add


def gpu_worker(data_queue: Any, results_queue: Any) -> None:
    """The recipe's worker loop on the device, the sentinel acknowledged. An error ends the
    worker, which the parent's next get reports (deadlines.get_from)."""
    warm_up_add()
    while True:
        data = data_queue.get()
        if data is None:
            data_queue.task_done()
            break
        a, b = data
        c = np.zeros_like(a)
        a_gpu, b_gpu, c_gpu = mem_alloc(a.size), mem_alloc(b.size), mem_alloc(c.size)
        a_gpu.set(a)  # cuda.memcpy_htod(a_gpu, a)
        b_gpu.set(b)
        poison(c_gpu)
        launch_add(a_gpu, b_gpu, c_gpu)
        c_gpu.get(out=c)  # cuda.memcpy_dtoh(c, c_gpu): back once the kernel is done
        results_queue.put(c)
        data_queue.task_done()


def benchmark(smoke: bool) -> Benchmark:
    return Benchmark(
        pattern="queued_worker",
        variant="python_seed_cupy",
        description="The article's JoinableQueue worker in Python on the GPU: (a, b) pairs by "
        "value to one spawned worker, which adds them with the article's kernel (cupy.RawKernel "
        "standing in for PyCUDA) through fresh device allocations; sums back on a results queue",
        setup=functools.partial(queued_worker.setup, loop=gpu_worker),
        run=queued_worker.run,
        verify=queued_worker.verify,
        close=queued_worker.close,
        axes={
            "compute": ["device"],
            "items": [10],
            "elements": [4099] if smoke else [1 << 16, 1 << 20],
            "start": ["warm"],
        },
        default_axes=None
        if smoke
        else {"compute": ["device"], "items": [10], "elements": [1 << 20], "start": ["warm"]},
        traffic=lambda at: (3.0 * 4 * int(at["items"]) * int(at["elements"]), int(at["items"])),
        recipe=True,
        cpu=False,
        unavailable=availability.needs("cupy"),
    )

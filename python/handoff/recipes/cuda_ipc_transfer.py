"""tensor_transfer's CUDA IPC hand-off in Python: torch.multiprocessing sends the CUDA tensor
itself (python_cuda_ipc, beside the C++ cuda_ipc, memory:device). Article 003 holds that a GPU
tensor cannot be shared between processes and must go through host memory; its own examples hand
the parent's CUDA tensor to the child in Process(args=...), which under spawn is this hand-off.
The sender puts its tensor on a queue; torch.multiprocessing's reducers send an IPC memory handle
and an event instead of the bytes; the parent opens the handle, its stream waits on the event,
and it copies the tensor into its own (as the C++ receiver copies into its own tensor). The run
ends when the copy is done and the received tensor released. PyTorch's rules for sharing CUDA
tensors (torch.multiprocessing's documentation, "Sharing CUDA tensors"), followed:
- workers are spawned: CUDA tensors are shared only with spawn or forkserver;
- the consumer releases what it received at once (del), after its own copy is complete
  (torch.cuda.synchronize), so the producer's memory is held no longer than the copy;
- the producer keeps its tensor, and stays up, until the consumer is done: it holds the tensor
  until the parent's None, which the parent sends only after releasing every tensor it got;
- a received tensor is never passed on: the parent copies it into a process-local tensor;
- torch.cuda.ipc_collect() in the producer before it exits frees what CUDA IPC still held and
  closes its reference-counting files, so none is left in /dev/shm.
A bug of the recipe that PyTorch's rules do not cover: the CUDA driver keeps an exporting
process's IPC state in a /dev/shm file named with its pid, which only destroying the process's
CUDA context removes, and PyTorch never destroys it; so every producer leaves one file behind when
it exits. The parent removes the sender's once the sender has exited.
Not a recipe of the article (it is the hand-off the article says cannot be done), so the report
sets it beside no C++ recipe. The received tensor lands in the row's device tensor, poisoned
before every run, so that a tensor that never arrived cannot pass. The sender stays up and shares
its tensor once per request: the warm figure."""

from __future__ import annotations

import contextlib
import glob
import importlib
import os
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Any

from handoff import availability
from handoff.arrays import Floats
from handoff.benchmark import Benchmark, Floor, Point, Workspace
from handoff.recipes.deadlines import end, get_from
from handoff.recipes.torch_support import (
    device_output,
    main_job_axes,
    sender_tensor,
    torch_module,
    wrong_on_arrival,
)


def torch_multiprocessing() -> Any:
    """torch.multiprocessing, whose import registers the reducers that share CUDA tensors."""
    return importlib.import_module("torch.multiprocessing")


# Each share wraps the tensor's storage once more, with an IPC event of its own, until the tensor
# is freed; past PyTorch's 1,000 live events a share synchronises the stream instead of sending
# an event, and a row's samples would mix the two hand-offs. The sender moves to a copy of its
# tensor this often, once the receiver has released every earlier share, so that the old one
# and its wrappings are freed.
SHARES_PER_TENSOR = 256


def ipc_sender(requests: Any, tensors: Any, count: int) -> None:
    torch_multiprocessing()
    tensor = sender_tensor(count, "device")
    shares = 0
    while requests.get() is not None:
        if shares == SHARES_PER_TENSOR:
            tensor, shares = tensor.clone(), 0
        tensors.put(tensor)
        shares += 1
    del tensor
    torch_module().cuda.ipc_collect()


@dataclass
class IpcCase:
    sender: BaseProcess
    requests: Any
    tensors: Any
    out: Floats
    device_out: Any  # the parent's own tensor, poisoned before every run
    torch: Any


def setup(workspace: Workspace, point: Point) -> IpcCase:
    count = int(point["bytes"]) // 4
    torch = torch_module()
    out = workspace.output(count)
    device_out = device_output(workspace, count)
    context = torch_multiprocessing().get_context("spawn")
    requests, tensors = context.Queue(), context.Queue()
    sender = context.Process(
        target=ipc_sender, args=(requests, tensors, count), name="cuda_ipc sender"
    )
    sender.start()
    return IpcCase(sender, requests, tensors, out, device_out, torch)


def run(case: IpcCase) -> None:
    case.requests.put(True)
    shared = get_from(case.tensors, case.sender)  # the sender's memory, opened: no bytes moved
    case.device_out.copy_(shared)
    case.torch.cuda.synchronize()
    del shared


def verify(case: IpcCase) -> int:
    return wrong_on_arrival(case.out, case.device_out)


def remove_driver_files_of(exporter: int) -> list[str]:
    """Removes the CUDA driver's IPC files of a process that has exited (named
    cuda.shm.<n>.<its pid in hex>.<n>); returns the paths it removed."""
    removed = []
    for path in glob.glob(f"/dev/shm/cuda.shm.*.{exporter:x}.*"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
            removed.append(path)
    return removed


def close(case: IpcCase) -> None:
    try:
        if case.sender.is_alive():
            case.requests.put(None)
        end(case.sender)
    finally:
        for each in (case.requests, case.tensors):
            each.cancel_join_thread()
            each.close()
        if case.sender.pid is not None and case.sender.exitcode is not None:
            remove_driver_files_of(case.sender.pid)


def benchmark(smoke: bool) -> Benchmark:
    sizes: list[int | str] = [65536] if smoke else [4096, 4 << 20, 256 << 20]
    return Benchmark(
        pattern="tensor_transfer",
        variant="python_cuda_ipc",
        description="torch.multiprocessing in Python: the sender's CUDA tensor put on a queue "
        "as an IPC handle and an event, the receiver's copy into its own tensor, then released",
        setup=setup,
        run=run,
        verify=verify,
        close=close,
        axes={"memory": ["device"], "bytes": sizes, "start": ["warm"]},
        default_axes=main_job_axes("device", sizes),
        traffic=lambda at: (float(at["bytes"]), 1.0),
        # As the C++ cuda_ipc rows' floor: the tensor read and written once on the device, and
        # the launch that copies it.
        floor=lambda at: Floor(
            bytes={"hbm_device_copy": 2.0 * float(at["bytes"])},
            events={"kernel_launch_sync": 1.0},
        ),
        cpu=False,
        unavailable=availability.needs("torch", gpus=1),
    )

"""tensor_transfer's shared-memory recipe in Python (article 003, example 3): the sender writes
tensor.cpu().numpy().tobytes() into an mmap that the parent also maps, and the parent reads the
tensor from it and moves it back to the GPU (python_shm, beside the C++ shm). memory:host sends a
NumPy array (no PyTorch) and copies what arrived into the row's output; memory:device is the
article's: the sender holds a CUDA tensor, and the parent copies the mapping up into its device
tensor (poisoned before every run, so that a tensor that never arrived cannot pass); the run
ends when it is there. Bugs of the recipe, fixed:
- mmap.mmap(-1, size, shm_name) is Windows' tagname form: on Linux the third argument is flags,
  and a name there is a TypeError; and an anonymous mapping made in the child is memory no other
  process sees. The parent makes the segment, an anonymous memfd sealed against resizing, and
  hands its descriptor to the sender over their pipe (SCM_RIGHTS), so it has no name to leave in
  /dev/shm and the sender cannot shrink it under the parent (DESIGN.md, process model 3);
- there is no synchronisation ("needs careful synchronization"): the sender writes only when
  asked, and says "written" over the pipe; the parent reads only then, with a deadline and a
  liveness check, so a dead sender is a WorkerError, never a hang or a torn tensor;
- shm.write advances the mapping's position, so a second write into a full mapping raises
  ValueError: each write starts at 0;
- the parent never reads the tensor: it copies it from the mapping into its own (host or
  device) tensor;
- the recipe's torch.randn values are unseeded, its parent's CUDA tensor is handed to a child
  started by fork, and the child's pipe end stays open in the parent: as in python_queue and
  python_pipe (tensor_transfer.py), the tensor is the seeded values, made by the spawned sender,
  and the parent closes the child's end after start().
The sender stays up and sends once per request: the warm figure."""

from __future__ import annotations

import contextlib
import fcntl
import mmap
import os
from dataclasses import dataclass
from multiprocessing import reduction
from multiprocessing.process import BaseProcess
from typing import Any

import numpy as np

from handoff import availability
from handoff.arrays import Floats
from handoff.benchmark import Benchmark, Point, Workspace
from handoff.errors import WorkerError
from handoff.recipes.context import spawn
from handoff.recipes.deadlines import end, receive
from handoff.recipes.floors import channel_floor
from handoff.recipes.torch_support import (
    DeviceRows,
    device_output,
    main_job_axes,
    on_host,
    sender_tensor,
    torch_module,
    wrong_on_arrival,
)


def sealed_segment(size: int) -> int:
    """An anonymous memory file of size bytes that no one can resize: its descriptor."""
    fd = os.memfd_create("handoff-tensor", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        os.ftruncate(fd, size)
        fcntl.fcntl(
            fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL
        )
    except BaseException:
        os.close(fd)
        raise
    return fd


def shm_sender(conn: Any, count: int, memory: str = "host") -> None:
    fd = reduction.recv_handle(conn)
    shm = mmap.mmap(fd, count * 4)
    os.close(fd)
    try:
        tensor = sender_tensor(count, memory)
        while conn.recv() is not None:
            shm.seek(0)
            shm.write(on_host(tensor).tobytes())  # the recipe's, as written
            conn.send(True)
    finally:
        shm.close()
        conn.close()


@dataclass
class ShmCase:
    sender: BaseProcess
    conn: Any
    segment: mmap.mmap
    shared: Floats | None  # the segment as the tensor's values
    out: Floats
    device_out: Any = None  # memory:device: the received tensor's place on the GPU
    shared_tensor: Any = None  # a tensor over shared
    torch: Any = None


def _setup(memory: str, workspace: Workspace, point: Point) -> ShmCase:
    count = int(point["bytes"]) // 4
    out = workspace.output(count)
    torch = device_out = None
    if memory == "device":  # before the sender starts, so that a failure here leaves none
        torch = torch_module()
        device_out = device_output(workspace, count)
    fd = sealed_segment(count * 4)
    try:
        segment = mmap.mmap(fd, count * 4)
        parent_conn, child_conn = spawn().Pipe()
        sender = spawn().Process(
            target=shm_sender, args=(child_conn, count, memory), name="shm sender"
        )
        sender.start()
        child_conn.close()  # else a dead sender never reads as EOF here
        try:
            reduction.send_handle(parent_conn, fd, sender.pid)
        except BaseException:
            parent_conn.close()  # the sender reads EOF and exits
            with contextlib.suppress(WorkerError):
                end(sender)
            segment.close()
            raise
    finally:
        os.close(fd)  # the mapping and the message in flight hold the segment
    shared = np.frombuffer(segment, dtype=np.float32, count=count)
    shared_tensor = None if torch is None else torch.from_numpy(shared)
    return ShmCase(sender, parent_conn, segment, shared, out, device_out, shared_tensor, torch)


def run(case: ShmCase) -> None:
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        case.conn.send(True)  # to a dead sender: the reply's wait says how it ended
    receive(case.conn, case.sender)  # "written"
    if case.device_out is None:
        assert case.shared is not None
        np.copyto(case.out, case.shared)
        return
    case.device_out.copy_(case.shared_tensor)  # the article's "transfer back to GPU"
    case.torch.cuda.synchronize()


def verify(case: ShmCase) -> int:
    return wrong_on_arrival(case.out, case.device_out)


def close(case: ShmCase) -> None:
    try:
        if case.sender.is_alive():
            with contextlib.suppress(OSError):  # it died since: end() says how
                case.conn.send(None)
        end(case.sender)
    finally:
        case.conn.close()
        # The views go first: a mapping with views over it cannot be closed.
        case.shared_tensor = None
        case.shared = None
        case.segment.close()


def benchmark(smoke: bool, memory: str) -> Benchmark:
    sizes: list[int | str] = [65536] if smoke else [4096, 4 << 20, 256 << 20]
    form = DeviceRows if memory == "device" else Benchmark
    return form(
        pattern="tensor_transfer",
        variant="python_shm",
        description="The article's mmap shared memory in Python: the sender writes "
        "tensor.cpu().numpy().tobytes() into a sealed memfd mapping and says so over a pipe, "
        "the parent copies it out (memory:host, no PyTorch) or up to its GPU (memory:device)",
        setup=lambda workspace, point: _setup(memory, workspace, point),
        run=run,
        verify=verify,
        close=close,
        axes={"memory": [memory], "bytes": sizes, "start": ["warm"]},
        default_axes=main_job_axes(memory, sizes),
        traffic=lambda at: (float(at["bytes"]), 1.0),
        floor=lambda at: channel_floor("shm_memcpy_one_thread", memory, at),
        recipe=True,
        unavailable=availability.needs("torch", gpus=1) if memory == "device" else None,
    )

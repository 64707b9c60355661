"""tensor_transfer's recipes in Python (article 003, examples 1 and 2): a process sends a tensor
through a multiprocessing.Queue (python_queue) or a Pipe (python_pipe) as tensor.cpu().numpy(),
and the parent receives it. memory:host sends a NumPy array (no PyTorch), and the received array
is copied into the row's output. memory:device is the article's as written: the sender holds a
CUDA tensor and copies it down with .cpu(), and the parent moves the received array up with
.cuda(), into its device tensor (which the driver poisons before every run, so that a tensor that
never arrived cannot pass); the run ends when it is there. Bugs of the recipe, fixed:
- the parent keeps its copy of the child's pipe end open, so a dead sender's recv() waits forever
  instead of ending in EOFError: the parent closes it after start();
- q.get() and recv() have no deadline: a dead sender is a WorkerError;
- torch.randn's values are unseeded (and may be zero): the tensor is the suite's seeded values;
- the parent makes its CUDA tensor and then starts the sender with the default start method,
  fork on Linux, whose child cannot use CUDA: the sender is spawned, and makes its own tensor on
  its GPU, since handing it the parent's (args=(q, tensor)) would share it by CUDA IPC, which is
  python_cuda_ipc's hand-off, not this channel's.
The sender stays up and sends the tensor once per request (the warm figure); the recipe's
one-shot process is the cold figure, not measured here: the C++ cold rows time a fresh channel
to a running receiver, and a Python row is sampled to the noise target, too slow for a process
start per sample."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Any

import numpy as np

from handoff import availability
from handoff.arrays import Floats
from handoff.benchmark import Benchmark, Point, Workspace
from handoff.recipes.context import spawn
from handoff.recipes.deadlines import end, get_from, receive
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


def queue_sender(requests: Any, q: Any, count: int, memory: str = "host") -> None:
    tensor = sender_tensor(count, memory)
    while requests.get() is not None:
        q.put(on_host(tensor))  # the recipe's q.put(tensor.cpu().numpy())


def pipe_sender(conn: Any, count: int, memory: str = "host") -> None:
    tensor = sender_tensor(count, memory)
    while conn.recv() is not None:
        conn.send(on_host(tensor))  # the recipe's conn.send(tensor.cpu().numpy())
    conn.close()


@dataclass
class TransferCase:
    sender: BaseProcess
    channel: str
    ends: tuple[Any, Any]  # queue: (requests, q); pipe: (parent_conn, parent_conn)
    out: Floats
    device_out: Any = None  # memory:device: the received tensor's place on the GPU
    torch: Any = None


def _setup(channel: str, memory: str, workspace: Workspace, point: Point) -> TransferCase:
    count = int(point["bytes"]) // 4
    out = workspace.output(count)
    torch = device_out = None
    if memory == "device":  # before the sender starts, so that a failure here leaves none
        torch = torch_module()
        device_out = device_output(workspace, count)
    context = spawn()
    if channel == "queue":
        requests, q = context.Queue(), context.Queue()
        sender = context.Process(
            target=queue_sender, args=(requests, q, count, memory), name="sender"
        )
        sender.start()
        ends: tuple[Any, Any] = (requests, q)
    else:
        parent_conn, child_conn = context.Pipe()
        sender = context.Process(
            target=pipe_sender, args=(child_conn, count, memory), name="sender"
        )
        sender.start()
        child_conn.close()  # else a dead sender never reads as EOF here
        ends = (parent_conn, parent_conn)
    return TransferCase(sender, channel, ends, out, device_out, torch)


def run(case: TransferCase) -> None:
    if case.channel == "queue":
        case.ends[0].put(True)
        received = get_from(case.ends[1], case.sender)
    else:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            case.ends[0].send(True)  # to a dead sender: the reply's wait says how it ended
        received = receive(case.ends[1], case.sender)
    if case.device_out is None:
        np.copyto(case.out, received)
        return
    # The recipe's torch.from_numpy(received_numpy).cuda(), into the row's device tensor.
    case.device_out.copy_(case.torch.from_numpy(received))
    case.torch.cuda.synchronize()


def verify(case: TransferCase) -> int:
    return wrong_on_arrival(case.out, case.device_out)


def close(case: TransferCase) -> None:
    try:
        if case.sender.is_alive():
            if case.channel == "queue":
                case.ends[0].put(None)
            else:
                with contextlib.suppress(OSError):  # it died since: end() says how
                    case.ends[0].send(None)
        end(case.sender)
    finally:
        if case.channel == "queue":
            for each in case.ends:
                each.cancel_join_thread()
                each.close()
        else:
            case.ends[0].close()


def benchmark(channel: str, smoke: bool, memory: str = "host") -> Benchmark:
    """memory:host at 4 KiB and 4 MiB; memory:device at the C++ rows' 4 KiB, 4 MiB and 256 MiB.
    Both forms of a channel are its variant, with one description; the device form is a family
    of its own (DeviceRows), skipped where torch or a GPU is missing while the host form runs."""
    if smoke:
        sizes: list[int | str] = [65536]
    else:
        sizes = [4096, 4 << 20] if memory == "host" else [4096, 4 << 20, 256 << 20]
    form = DeviceRows if memory == "device" else Benchmark
    return form(
        pattern="tensor_transfer",
        variant=f"python_{channel}",
        description=f"The article's multiprocessing.{channel.capitalize()} in Python: a NumPy "
        "array through host memory (memory:host, no PyTorch), or a CUDA tensor's .cpu().numpy() "
        "sent and moved up with .cuda() (memory:device)",
        setup=lambda workspace, point: _setup(channel, memory, workspace, point),
        run=run,
        verify=verify,
        close=close,
        axes={"memory": [memory], "bytes": sizes, "start": ["warm"]},
        default_axes=main_job_axes(memory, sizes),
        traffic=lambda at: (float(at["bytes"]), 1.0),
        floor=lambda at: channel_floor("pipe_between_processes", memory, at),
        recipe=True,
        unavailable=availability.needs("torch", gpus=1) if memory == "device" else None,
    )

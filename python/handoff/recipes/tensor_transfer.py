"""tensor_transfer's recipes in Python (article 003, examples 1 and 2): a process sends a tensor
as a NumPy array through a multiprocessing.Queue (python_queue) or a Pipe (python_pipe), and the
parent receives it. Host memory only (memory:host): the .cuda() and .cpu() steps need PyTorch and
a GPU, left for those machines; the received array is copied into the row's output, where the
recipe moves it back to the GPU. Bugs of the recipe, fixed:
- the parent keeps its copy of the child's pipe end open, so a dead sender's recv() waits forever
  instead of ending in EOFError: the parent closes it after start();
- q.get() and recv() have no deadline: a dead sender is a WorkerError;
- torch.randn's values are unseeded (and may be zero): the tensor is the suite's seeded values.
The sender stays up and sends the tensor once per request (the warm figure); the recipe's
one-shot process is the cold figure, not measured here."""

from __future__ import annotations

from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Any

import numpy as np

from handoff import arrays
from handoff.arrays import Floats
from handoff.benchmark import Benchmark, Floor, Point, Workspace
from handoff.recipes.context import SEED_A, spawn
from handoff.recipes.deadlines import end, get_from, receive


def queue_sender(requests: Any, q: Any, count: int) -> None:
    tensor = arrays.seeded(count, SEED_A)
    while requests.get() is not None:
        q.put(tensor)  # the recipe's q.put(tensor.cpu().numpy())


def pipe_sender(conn: Any, count: int) -> None:
    tensor = arrays.seeded(count, SEED_A)
    while conn.recv() is not None:
        conn.send(tensor)  # the recipe's conn.send(tensor.cpu().numpy())
    conn.close()


@dataclass
class TransferCase:
    sender: BaseProcess
    channel: str
    ends: tuple[Any, Any]  # queue: (requests, q); pipe: (parent_conn, parent_conn)
    out: Floats


def _setup(channel: str, workspace: Workspace, point: Point) -> TransferCase:
    count = int(point["bytes"]) // 4
    context = spawn()
    if channel == "queue":
        requests, q = context.Queue(), context.Queue()
        sender = context.Process(target=queue_sender, args=(requests, q, count), name="sender")
        sender.start()
        ends: tuple[Any, Any] = (requests, q)
    else:
        parent_conn, child_conn = context.Pipe()
        sender = context.Process(target=pipe_sender, args=(child_conn, count), name="sender")
        sender.start()
        child_conn.close()  # else a dead sender never reads as EOF here
        ends = (parent_conn, parent_conn)
    return TransferCase(sender, channel, ends, workspace.output(count))


def run(case: TransferCase) -> None:
    if case.channel == "queue":
        case.ends[0].put(True)
        received = get_from(case.ends[1], case.sender)
    else:
        case.ends[0].send(True)
        received = receive(case.ends[1], case.sender)
    np.copyto(case.out, received)


def verify(case: TransferCase) -> int:
    return arrays.wrong_elements(arrays.seeded(case.out.size, SEED_A), case.out, max_ulp=0)


def close(case: TransferCase) -> None:
    try:
        if case.sender.is_alive():
            if case.channel == "queue":
                case.ends[0].put(None)
            else:
                case.ends[0].send(None)
        end(case.sender)
    finally:
        if case.channel == "queue":
            for each in case.ends:
                each.cancel_join_thread()
                each.close()
        else:
            case.ends[0].close()


def benchmark(channel: str, smoke: bool) -> Benchmark:
    sizes: list[int | str] = [65536] if smoke else [4096, 4 << 20]
    return Benchmark(
        pattern="tensor_transfer",
        variant=f"python_{channel}",
        description=f"The article's multiprocessing.{channel.capitalize()} of a NumPy array in "
        "Python, host memory (no PyTorch)",
        setup=lambda workspace, point: _setup(channel, workspace, point),
        run=run,
        verify=verify,
        close=close,
        axes={"memory": ["host"], "bytes": sizes, "start": ["warm"]},
        traffic=lambda at: (float(at["bytes"]), 1.0),
        # As the C++ queue and pipe rows' floor: the tensor's bytes through a pipe.
        floor=lambda at: Floor(bytes={"pipe_between_processes": float(at["bytes"])}),
        recipe=True,
    )

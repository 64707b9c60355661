"""PyTorch's own hand-off of a CUDA tensor between two processes, timed the way tensor_transfer's
cuda_ipc row is: the producer writes a fresh tensor, puts it on a torch.multiprocessing queue
(a cached CUDA IPC memory handle and an interprocess event), the consumer copies it into its own
tensor on the device, synchronises and answers. An investigation tool for issue 15, run where
PyTorch is installed:  python3 tools/probes/torch_ipc_probe.py [bytes]"""

import statistics
import sys
import time

import torch
import torch.multiprocessing as mp

ROUNDS = 300
WARM_UP = 30


def consumer(inbox: "mp.Queue", outbox: "mp.Queue", elements: int, copy: bool) -> None:
    destination = torch.empty(elements, dtype=torch.float32, device="cuda")
    while True:
        tensor = inbox.get()
        if tensor is None:
            return
        if copy:
            destination.copy_(tensor)
        torch.cuda.synchronize()
        del tensor
        outbox.put(True)


def run(elements: int, write: bool, copy: bool) -> float:
    ctx = mp.get_context("spawn")
    inbox, outbox = ctx.Queue(), ctx.Queue()
    process = ctx.Process(target=consumer, args=(inbox, outbox, elements, copy))
    process.start()
    tensor = torch.ones(elements, dtype=torch.float32, device="cuda")
    torch.cuda.synchronize()
    rounds = []
    for index in range(ROUNDS + WARM_UP):
        start = time.perf_counter()
        if write:
            tensor.fill_(float(index % 100 + 1))
        inbox.put(tensor)
        outbox.get()
        if index >= WARM_UP:
            rounds.append((time.perf_counter() - start) * 1e6)
    inbox.put(None)
    process.join()
    return statistics.median(rounds)


def main() -> None:
    size = int(sys.argv[1], 0) if len(sys.argv) > 1 else 4 << 20
    elements = size // 4
    print(f"torch {torch.__version__}, {size} bytes, {torch.cuda.get_device_name()}")
    for write in (False, True):
        for copy in (False, True):
            median = run(elements, write, copy)
            print(f"fresh write {write!s:5} device copy {copy!s:5}: median round {median:8.1f} us")


if __name__ == "__main__":
    main()

"""Measuring your own hand-off to a GPU with the suite's driver: here, a NumPy array handed to
PyTorch, copied to the GPU from pinned memory, doubled there and copied back, all on one CUDA
stream. Because the work is on a stream, the driver times each run with CUDA events recorded on
that stream (Benchmark.stream), as it times the C++ GPU rows, and run() only enqueues. Run it from
the checkout, after `ci/setup` and a build, on a machine whose Python has PyTorch and a GPU (it is
skipped, with the reason, elsewhere):

    .venv/bin/python examples/python/my_gpu_handoff.py --benchmark_out=mine.json \\
        --handoff-ceilings-from=results/handoff-....json   # the floor, from a main job

It takes handoff_bench's flags and exits non-zero when a row is wrong or fails."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

import handoff
from handoff.availability import needs

SEED = 7


@dataclass
class Case:
    torch: Any
    stream: Any
    pinned: Any  # the input, in page-locked host memory
    device: Any  # where it goes, and is doubled
    back: Any  # the result, in page-locked host memory
    out: handoff.arrays.Floats  # the row's output, poisoned before every run
    inputs: handoff.arrays.Floats


def setup(workspace: handoff.Workspace, point: handoff.Point) -> Case:
    import torch

    elements = int(point["elements"])
    inputs = workspace.inputs(elements, SEED)
    pinned = torch.from_numpy(inputs).pin_memory()
    case = Case(
        torch=torch,
        stream=torch.cuda.Stream(),
        pinned=pinned,
        device=torch.empty(elements, dtype=torch.float32, device="cuda"),
        back=torch.empty(elements, dtype=torch.float32).pin_memory(),
        out=workspace.output(elements),
        inputs=inputs,
    )
    # What the run writes is poisoned with the row's outputs, untimed, before every run.
    workspace.also_poison(lambda: poison(case))
    return case


def run(case: Case) -> None:
    """The timed hand-off, enqueued on the case's stream: up, doubled, and back."""
    with case.torch.cuda.stream(case.stream):
        case.device.copy_(case.pinned, non_blocking=True)
        case.device.mul_(2.0)
        case.back.copy_(case.device, non_blocking=True)


def poison(case: Case) -> None:
    """Untimed, before every run: what the run writes is poisoned, once the last run is done."""
    case.stream.synchronize()
    handoff.poison(case.back.numpy())


def verify(case: Case) -> int:
    """After the last run: wait for the stream, then check what came back."""
    case.stream.synchronize()
    np.copyto(case.out, case.back.numpy())
    return handoff.wrong_elements(case.inputs * np.float32(2), case.out)


MINE = handoff.Benchmark(
    pattern="my_patterns",
    variant="torch_round_trip",
    description="a NumPy array to the GPU through pinned memory with PyTorch, doubled, and back",
    setup=setup,
    run=run,
    verify=verify,
    stream=lambda case: int(case.stream.cuda_stream),
    axes={"elements": [1 << 16, 1 << 24]},
    traffic=lambda point: (2 * 4 * int(point["elements"]), 1),
    floor=lambda point: handoff.Floor(
        bytes={
            "pcie_h2d_pinned": 4 * int(point["elements"]),
            "pcie_d2h_pinned": 4 * int(point["elements"]),
        }
    ),
    cpu=False,
    unavailable=needs("torch"),
)


def main(arguments: list[str]) -> Any:
    return handoff.main([MINE], arguments)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

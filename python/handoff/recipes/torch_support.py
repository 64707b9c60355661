"""What the PyTorch recipes share. torch is imported only when a row is set up or a worker starts,
so that a machine without it lists the rows and skips them with the reason. A device tensor that
a row's result lands in is poisoned with the row's host outputs before every run, so that a
result that never reached it cannot pass. A sender's tensor is NumPy on the host rows and a CUDA
tensor on the device rows, and reaches the channel as the recipes' tensor.cpu().numpy()."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from handoff import arrays
from handoff.arrays import Floats
from handoff.benchmark import Benchmark, Workspace
from handoff.recipes.context import SEED_A


def torch_module() -> Any:
    return importlib.import_module("torch")


class DeviceRows(Benchmark):
    """A variant's memory:device rows, named as a family of their own beside its memory:host rows:
    where torch or a GPU is missing, the skip names them, not the whole variant, whose host rows
    still run (as handoff_bench names its skipped tensor_transfer device family)."""

    @property
    def family(self) -> str:
        return f"{self.pattern}/{self.variant}/memory:device"


def poison_device(tensor: Any) -> None:
    """Every byte 0xFF, as arrays.poison: a NaN, which no verification accepts."""
    tensor.view(torch_module().int32).fill_(-1)


def device_output(workspace: Workspace, count: int) -> Any:
    """A float32 CUDA tensor of count elements, poisoned before every run with the workspace's
    outputs; the poison is finished before the run's clock starts."""
    torch = torch_module()
    tensor = torch.empty(count, dtype=torch.float32, device="cuda")

    def poison_on_the_device() -> None:
        poison_device(tensor)
        torch.cuda.synchronize()

    poison_on_the_device()
    workspace.also_poison(poison_on_the_device)
    return tensor


def copy_to_host(device_values: Any, host_values: Floats) -> Floats:
    """The device tensor's values in host_values (for verification, after the timed runs)."""
    np.copyto(host_values, device_values.reshape(-1).cpu().numpy())
    return host_values


def wrong_on_arrival(out: Floats, device_out: Any | None) -> int:
    """How many of the tensor's elements arrived wrong (bit for bit against the sender's seeded
    values): in the row's device tensor where the tensor went to the GPU, else in out."""
    if device_out is not None:
        copy_to_host(device_out, out)
    return arrays.wrong_elements(arrays.seeded(out.size, SEED_A), out, max_ulp=0)


def sender_tensor(count: int, memory: str) -> Any:
    """The tensor a sender holds: the suite's seeded values (the recipes' torch.randn, which is
    unseeded and may hold zeros), on the host or on this process's GPU."""
    values = arrays.seeded(count, SEED_A)
    if memory == "host":
        return values
    return torch_module().from_numpy(values).cuda()


def on_host(tensor: Any) -> Floats:
    """The recipes' tensor.cpu().numpy(): a device tensor copied down, a host array as it is."""
    if isinstance(tensor, np.ndarray):
        return tensor
    host: Floats = tensor.cpu().numpy()
    return host


HEADLINE_BYTES = 4 << 20  # the headline's tensor_transfer point (ci/headline-rows)


def main_job_axes(memory: str, sizes: list[int | str]) -> dict[str, list[int | str]] | None:
    """A transfer's points in the main job: a device tensor at the headline's size only (each
    size costs the sender's start with PyTorch and a CUDA context in every process, and a 256 MiB
    tensor a second a run through a queue or a pipe); a host array up to the headline's size."""
    if HEADLINE_BYTES not in sizes:
        return None
    if memory == "device":
        return {"memory": [memory], "bytes": [HEADLINE_BYTES], "start": ["warm"]}
    return {
        "memory": [memory],
        "bytes": [s for s in sizes if int(s) <= HEADLINE_BYTES],
        "start": ["warm"],
    }

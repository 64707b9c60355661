"""Which machine a run was measured on, as far as comparing two runs is concerned.

A figure belongs to its machine: another GPU or CPU model, another driver or CUDA runtime moves
every row for reasons that are not the code's. So two runs are comparable only when these facts
agree. Another unit of the same model (a different GPU UUID, another lent machine of one kind) is
the same machine here: that difference is what the process-level spread measures. A fact that one
run does not state (older files) is not a difference.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

GPU_MODEL, CPU_MODEL, DRIVER, CUDA_RUNTIME = "GPU model", "CPU model", "driver", "CUDA runtime"
MACHINE_FACTS = (GPU_MODEL, CPU_MODEL, DRIVER, CUDA_RUNTIME)


def _text(context: Mapping[str, Any], key: str) -> str | None:
    value = context.get(key)
    return None if value is None or str(value) == "" else str(value)


def _gpu_models(context: Mapping[str, Any]) -> str | None:
    """The GPU models, e.g. "NVIDIA H200"; "none" on a machine without one; None if unstated.

    The count is left out: a run on one GPU of a four-GPU machine measured the same model."""
    count = _text(context, "handoff_gpu_count")
    if count is None:
        return None
    try:
        gpus = int(count)
    except ValueError:
        return None
    if gpus == 0:
        return "none"
    names = {name for i in range(gpus) if (name := _text(context, f"handoff_gpu{i}_name"))}
    return ", ".join(sorted(names)) or None


def machine_identity(context: Mapping[str, Any]) -> dict[str, str | None]:
    """Each of MACHINE_FACTS as the run's context states it; None where it does not."""
    return {
        GPU_MODEL: _gpu_models(context),
        CPU_MODEL: _text(context, "handoff_cpu_model"),
        DRIVER: _text(context, "handoff_driver_version"),
        CUDA_RUNTIME: _text(context, "handoff_cuda_runtime"),
    }


def machine_changes(
    first: Mapping[str, Any], second: Mapping[str, Any]
) -> list[tuple[str, str, str]]:
    """(fact, first, second) for each machine fact both contexts state and that differs."""
    before, after = machine_identity(first), machine_identity(second)
    return [
        (fact, b, a)
        for fact in MACHINE_FACTS
        if (b := before[fact]) is not None and (a := after[fact]) is not None and b != a
    ]


def describe_changes(changes: list[tuple[str, str, str]]) -> str:
    """'CPU model: AMD EPYC -> Intel(R) Xeon(R) Processor; GPU model: none -> NVIDIA H200'."""
    return "; ".join(f"{fact}: {before} -> {after}" for fact, before, after in changes)

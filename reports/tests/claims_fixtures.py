"""Made-up runs for the claims tests, each an edited copy of a real handoff_bench document."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from handoff_reports.results import Run, parse_results

REAL = Path(__file__).parent / "fixtures" / "real"
ONE_GPU = REAL / "h200-1gpu.json"
FOUR_GPUS = REAL / "h200x4-multi_gpu.json"
NIGHTLY = (
    REAL / "h200-nightly.json"
)  # ci/nightly on one H200: 4 passes at 2^20, tensor_transfer too

# An early README sample (a 256 MiB device tensor, warm, on one H200), kept as the claims tests'
# synthetic rows; the README's table has moved on since.
README_TRANSFER_MS = {
    "queue": 278.0,
    "pipe": 181.6,
    "shm": 180.6,
    "shm_pinned": 5.99,
    "cuda_ipc": 0.48,
    "vmm_fd": 0.19,
}
TRANSFER_VARIANTS = tuple(README_TRANSFER_MS)
TRANSFER_SIZES = tuple(4**power for power in range(6, 16))  # 4 KiB .. 1 GiB
SAMPLE_BYTES = 1 << 28


# The real fixtures were measured when a cold row's name ended in its sample count; today's bench
# names it without (the claims name today's rows: bench_run.every_claim_names_rows_the_bench_lists).
_OLD_COLD_COUNT = re.compile(r"(/start:cold)/iterations:\d+")


def document(path: Path = ONE_GPU) -> dict[str, Any]:
    """A real fixture, its rows under today's names."""
    loaded: dict[str, Any] = json.loads(path.read_text())
    for entry in loaded.get("benchmarks", []):
        for field in ("name", "run_name"):
            if isinstance(entry.get(field), str):
                entry[field] = _OLD_COLD_COUNT.sub(r"\1", entry[field])
    return loaded


def run_of(edited: dict[str, Any]) -> Run:
    return parse_results(edited, "made-up")


def transfer_entry(variant: str, size: int, ms: float, memory: str = "device") -> dict[str, Any]:
    name = f"tensor_transfer/{variant}/memory:{memory}/bytes:{size}/start:warm/manual_time"
    return {
        "name": name,
        "run_name": name,
        "run_type": "iteration",
        "repetitions": 1,
        "repetition_index": 0,
        "iterations": 10,
        "real_time": ms,
        "cpu_time": ms,
        "time_unit": "ms",
        "bytes": float(size),
        "verified": float(size),
        "wrong": 0.0,
    }


def with_transfers(
    original: dict[str, Any],
    times_ms: dict[str, float] = README_TRANSFER_MS,
    size: int = SAMPLE_BYTES,
) -> dict[str, Any]:
    edited = copy.deepcopy(original)
    edited["benchmarks"] += [transfer_entry(v, size, ms) for v, ms in times_ms.items()]
    return edited


def _entries(edited: dict[str, Any], key: str) -> list[dict[str, Any]]:
    found = [
        entry
        for entry in edited["benchmarks"]
        if entry["run_name"].removesuffix("/manual_time") == key
    ]
    assert found, f"no benchmark {key} to edit"
    return found


def swap_times(original: dict[str, Any], key_a: str, key_b: str) -> dict[str, Any]:
    edited = copy.deepcopy(original)
    (a,), (b,) = _entries(edited, key_a), _entries(edited, key_b)
    for field in ("real_time", "time_unit"):
        a[field], b[field] = b[field], a[field]
    return edited


def fail_row(original: dict[str, Any], key: str, error: str | None = None) -> dict[str, Any]:
    """A row whose verification found wrong elements, or (with `error`) that did not run."""
    edited = copy.deepcopy(original)
    for entry in _entries(edited, key):
        if error is None:
            entry["wrong"] = 12.0
        else:
            entry["error_occurred"] = True
            entry["error_message"] = error
    return edited


def _runs_without_gpu(key: str) -> bool:
    parts = key.split("/")
    if parts[0] == "ceilings":
        return parts[1] in ("pipe_between_processes", "shm_memcpy_one_thread")
    host_axes = ("compute:host", "target:host", "memory:host")
    return parts[1].startswith("cpu_") or any(axis in parts for axis in host_axes)


CPU_ONLY_SKIPPED = (
    "needs 1 GPU, this machine has 0: elementwise/extended/gpu, tensor_transfer/device"
)


def cpu_only(original: dict[str, Any]) -> dict[str, Any]:
    """The run a machine without a GPU would write: only the rows that need none."""
    edited = copy.deepcopy(original)
    edited["benchmarks"] = [
        entry
        for entry in edited["benchmarks"]
        if _runs_without_gpu(entry["run_name"].removesuffix("/manual_time"))
    ]
    edited["context"]["handoff_gpu_count"] = "0"
    edited["context"]["handoff_skipped_families"] = CPU_ONLY_SKIPPED
    return edited


def producible_names() -> set[str]:
    """Benchmark names handoff_bench can produce: the real fixtures' rows, plus the families no
    real fixture holds, named as the bench registers them."""
    names = {
        key
        for path in (ONE_GPU, FOUR_GPUS)
        for key in run_of(document(path)).rows
        if not key.startswith("ceilings/")
    }
    names |= {
        f"tensor_transfer/{variant}/memory:{memory}/bytes:{size}/start:{start}"
        for variant in TRANSFER_VARIANTS
        for memory in ("device", "host")
        for size in TRANSFER_SIZES
        for start in ("cold", "warm")
    }
    # The registrar registers every gather variant of multi_gpu's table over one sweep
    # (patterns/src/multi_gpu/sweep.cpp), so each has the rows nccl_allgather has.
    gathers = ("host_gather", "host_gather_pinned", "p2p_gather")
    names |= {
        key.replace("/nccl_allgather/", f"/{gather}/")
        for key in list(names)
        if key.startswith("multi_gpu/nccl_allgather/")
        for gather in gathers
    }
    return names

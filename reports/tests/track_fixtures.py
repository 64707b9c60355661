"""Synthetic nightly results for the history: 30 nights of a real run's manifest, a few
benchmarks with five seeded, noisy repetitions each, and optional steps and driver updates."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REAL = Path(__file__).parent / "fixtures" / "real" / "h200-1gpu.json"
FIRST_NIGHT = datetime(2026, 10, 1, 2, 0, tzinfo=UTC)
# Three real benchmark names from the H200 run, with round base times in microseconds.
BENCHMARKS = {
    "elementwise/gpu_resident/workload:vector_add/elements:1048576": 20.0,
    "queued_worker/cuda_ipc/bytes:16777216": 900.0,
    "ceilings/kernel_launch_async": 2.5,
}
STEPPED = "queued_worker/cuda_ipc/bytes:16777216"


@dataclass
class Nights:
    count: int = 30
    step_at: int | None = None  # first night of the new speed
    step_factor: float = 1.2  # time multiplied by this from step_at on, on STEPPED only
    driver_change_at: int | None = None  # first night on driver 580.65.06
    settings_change_at: int | None = None  # first night at setting_max_noise 0.02, not 0.01
    repetitions: int = 5
    seed: int = 6
    night_noise: float = 0.01  # relative: what changes from night to night
    repetition_noise: float = 0.01  # relative: what changes between repetitions
    benchmarks: dict[str, float] = field(default_factory=lambda: dict(BENCHMARKS))
    variants: str | None = None  # the context's handoff_variants record; None: a file before it


def real_context() -> dict[str, Any]:
    context: dict[str, Any] = json.loads(REAL.read_text())["context"]
    return context


def night_document(
    context: dict[str, Any], night: int, nights: Nights, rng: random.Random
) -> dict[str, Any]:
    context = copy.deepcopy(context)
    context["date"] = (FIRST_NIGHT + timedelta(days=night)).isoformat()
    context["handoff_git_commit"] = f"{night:04x}c0ffee"[:12]
    new_driver = nights.driver_change_at is not None and night >= nights.driver_change_at
    context["handoff_driver_version"] = "580.65.06" if new_driver else "570.124.06"
    if nights.settings_change_at is not None:
        new_settings = night >= nights.settings_change_at
        for key, value in {
            "profile": "default",
            "max_noise": "0.02" if new_settings else "0.01",
            "min_samples": "10",
            "min_time": "0.1",
            "timeout": "1",
            "max_elements": "1048576",
            "filter": "",
            "repetitions": str(nights.repetitions),
        }.items():
            context[f"setting_{key}"] = value
    if nights.variants is not None:
        context["handoff_variants"] = nights.variants
    benchmarks = []
    for name, microseconds in nights.benchmarks.items():
        if name == STEPPED and nights.step_at is not None and night >= nights.step_at:
            microseconds *= nights.step_factor
        tonight = microseconds * (1 + rng.gauss(0, nights.night_noise))
        for repetition in range(nights.repetitions):
            benchmarks.append(
                {
                    "name": f"{name}/manual_time",
                    "run_name": f"{name}/manual_time",
                    "run_type": "iteration",
                    "repetitions": nights.repetitions,
                    "repetition_index": repetition,
                    "iterations": 100,
                    "real_time": tonight * (1 + rng.gauss(0, nights.repetition_noise)),
                    "cpu_time": tonight,
                    "time_unit": "us",
                    "wrong": 0.0,
                    "verified": 1024.0,
                }
            )
    return {"context": context, "benchmarks": benchmarks}


def write_nights(folder: Path, nights: Nights) -> list[Path]:
    """One results file per night, night 0 first."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(nights.seed)
    context = real_context()
    paths = []
    for night in range(nights.count):
        path = folder / f"night-{night:02d}.json"
        path.write_text(json.dumps(night_document(context, night, nights, rng)))
        paths.append(path)
    return paths

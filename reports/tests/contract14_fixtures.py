"""Small synthetic results in issue 14's format: per-row samples, noise, interval and settings."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

Document = dict[str, Any]

DEFAULT_SETTINGS = {
    "profile": "default",
    "max_noise": "0.01",
    "min_samples": "10",
    "min_time": "0.1",
    "timeout": "1",
    "cold_samples": "3",
    "max_elements": "268435456",
    "filter": "",
    "repetitions": "1",
    "shuffle_seed": "0",
    "planted_slowdown": "",
}


def entry(
    name: str,
    seconds: float,
    noise: float | None = 0.005,
    *,
    repetition: int = 0,
    repetitions: int = 1,
    noisy: bool = False,
    samples: int = 50,
    clock: int = 0,
    clock_lowered: bool = False,
    wrong: float = 0.0,
    process: str | None = None,
) -> dict[str, Any]:
    """One benchmark entry: `seconds` is the median, its interval `noise` either side of it;
    `process` the token of the process that measured it (None: an older file's, unnamed)."""
    result: dict[str, Any] = {
        "name": name,
        "run_name": name,
        "run_type": "iteration",
        "repetitions": repetitions,
        "repetition_index": repetition,
        "iterations": 1,
        "real_time": seconds / 1e-6,
        "cpu_time": seconds / 1e-6,
        "time_unit": "us",
        "wrong": wrong,
        "verified": 1.0,
    }
    if process is not None:
        result["handoff_process"] = process
    if noise is not None:
        result.update(
            samples=samples,
            noise=noise,
            ci_low=seconds * (1 - noise),
            ci_high=seconds * (1 + noise),
            noise_target=0.01,
            noisy=1 if noisy else 0,
            fixed_samples=0,
            clock=clock,
            warmup_runs=3,
        )
        if clock_lowered:
            result["clock_lowered"] = 1
    return result


def document(
    entries: Sequence[Mapping[str, Any]],
    settings: Mapping[str, str] | None = None,
    *,
    state: str = "complete",
    reason: str = "",
    with_settings: bool = True,
) -> Document:
    context: dict[str, Any] = {
        "date": "2025-01-01T00:00:00+00:00",
        "handoff_version": "0.1.0",
        "handoff_git_commit": "abc",
        "handoff_gpu_count": "0",
    }
    if with_settings:
        merged = {**DEFAULT_SETTINGS, **(settings or {})}
        context.update({f"setting_{key}": value for key, value in merged.items()})
    return {
        "context": context,
        "benchmarks": [dict(e) for e in entries],
        "handoff_ceilings": {},
        "handoff_run": {"state": state, "reason": reason, "rows": len(entries)},
        "handoff_ceilings_source": {"kind": "measured", "file": "", "measured_at": "", "note": ""},
    }


def with_settings(source: Document, **settings: str) -> Document:
    result = copy.deepcopy(source)
    result["context"].update({f"setting_{key}": value for key, value in settings.items()})
    return result


def write(directory: Path, name: str, content: Document) -> Path:
    path = directory / name
    path.write_text(json.dumps(content))
    return path

"""Made-up results, derived from a real run by planting one defect each."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"
REAL_GPU = FIXTURES / "real" / "h200-1gpu.json"
FAILED_ROW = "elementwise/gpu_resident/workload:vector_add/elements:1048576/manual_time"
SUSPECT_ROW = "elementwise/gpu_transfers_pinned/workload:vector_add/elements:16777216/manual_time"


def real_gpu_document() -> dict[str, Any]:
    return dict(json.loads(REAL_GPU.read_text()))


def _entry(document: dict[str, Any], name: str) -> dict[str, Any]:
    return next(entry for entry in document["benchmarks"] if entry["name"] == name)


def with_failed_verification(document: dict[str, Any]) -> dict[str, Any]:
    planted = copy.deepcopy(document)
    _entry(planted, FAILED_ROW)["wrong"] = 17.0
    return planted


def with_figure_above_ceiling(document: dict[str, Any]) -> dict[str, Any]:
    """The row runs at 1.25 times its floor's speed: faster than this run's ceilings allow."""
    planted = copy.deepcopy(document)
    entry = _entry(planted, SUSPECT_ROW)
    entry["real_time"] = entry["floor_seconds"] / 1.25 / 1e-6
    entry["time_unit"] = "us"
    return planted


def write(document: dict[str, Any], path: Path) -> Path:
    path.write_text(json.dumps(document))
    return path

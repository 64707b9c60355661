"""A C++ main job and a Python recipes run of the same points, 3 processes a row
(fixtures/python), and edited copies of them."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from handoff_reports.results import Run, parse_results

PYTHON_FIXTURES = Path(__file__).parent / "fixtures" / "python"
CPP_RUN = PYTHON_FIXTURES / "cpp-main-job.json"
PYTHON_RUN = PYTHON_FIXTURES / "python-recipes.json"
POOL_POINT = "chunks:10/elements:1048576/workers:4/start:warm"
PYTHON_POOL = f"pool_prep/python_seed/{POOL_POINT}"


def loaded(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text())
    return document


def run_of(document: dict[str, Any], name: str) -> Run:
    return parse_results(document, name)


def edited_rows(document: dict[str, Any], key: str, **fields: Any) -> dict[str, Any]:
    """A copy of the document whose repetitions of row `key` have `fields` set."""
    edited = copy.deepcopy(document)
    for entry in edited["benchmarks"]:
        if entry["name"] == f"{key}/manual_time":
            entry.update(fields)
    return edited


def written(document: dict[str, Any], path: Path) -> Path:
    path.write_text(json.dumps(document))
    return path

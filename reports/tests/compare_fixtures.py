"""Made-up runs for the compare tests, built by editing copies of the real GPU results."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from handoff_reports.names import parse_name
from handoff_reports.results import Repetition, Row, Run

FIXTURES = Path(__file__).parent / "fixtures"
SINGLE_GPU = FIXTURES / "real" / "h200-1gpu.json"
MULTI_GPU = FIXTURES / "real" / "h200x4-multi_gpu.json"
COMPARE_FIXTURES = FIXTURES / "compare"

Document = dict[str, Any]
Predicate = Callable[[str], bool]


def real_document(path: Path = SINGLE_GPU) -> Document:
    document: Document = json.loads(path.read_text())
    return document


def key_of(entry: dict[str, Any]) -> str:
    return parse_name(str(entry.get("run_name") or entry["name"])).key


def benchmark_keys(document: Document) -> list[str]:
    """Keys of the non-ceiling rows, in file order, without duplicates."""
    keys = dict.fromkeys(key_of(entry) for entry in document["benchmarks"])
    return [key for key in keys if not key.startswith("ceilings/")]


def scaled(document: Document, factor: float, which: Predicate) -> Document:
    """A copy in which the rows `which` selects took `factor` times as long."""
    result = copy.deepcopy(document)
    for entry in result["benchmarks"]:
        if which(key_of(entry)):
            entry["real_time"] *= factor
    return result


def with_repetitions(
    document: Document, count: int, noise: float, seed: int, processes: bool = False
) -> Document:
    """A copy in which every row has `count` repetitions, each its time times 1 + N(0, noise);
    each repetition its own process when `processes`, else all of the file's one process."""
    generator = random.Random(seed)
    result = copy.deepcopy(document)
    repeated = []
    for entry in result["benchmarks"]:
        for index in range(count):
            repetition = copy.deepcopy(entry)
            repetition["repetitions"] = count
            repetition["repetition_index"] = index
            repetition["real_time"] = entry["real_time"] * (1 + generator.gauss(0, noise))
            if processes:
                repetition["handoff_process"] = f"seed{seed}-{index}"
            repeated.append(repetition)
    result["benchmarks"] = repeated
    return result


def as_processes(
    document: Document, count: int = 3, spread: float = 0.005, label: str = "p"
) -> Document:
    """A copy measured by `count` processes: every entry once per process, with its own token
    (`label` and its number) and its times scaled by 1 + spread * (i - middle), so that each row's
    process medians sit evenly around its time, the middle one on it."""
    result = copy.deepcopy(document)
    processes = []
    for entry in result["benchmarks"]:
        for index in range(count):
            factor = 1 + spread * (index - (count - 1) / 2)
            repetition = copy.deepcopy(entry)
            repetition.update(
                repetitions=count, repetition_index=index, handoff_process=f"{label}{index}"
            )
            for field in ("real_time", "cpu_time", "ci_low", "ci_high"):
                if isinstance(repetition.get(field), float | int):
                    repetition[field] = repetition[field] * factor
            processes.append(repetition)
    result["benchmarks"] = processes
    return result


def one_process_per_repetition(document: Document, label: str) -> Document:
    """A copy whose every repetition is named as its own process: what a file merged from
    separate processes before processes were named was."""
    result = copy.deepcopy(document)
    for entry in result["benchmarks"]:
        entry["handoff_process"] = f"{label}-{entry.get('repetition_index', 0)}"
    return result


def with_wrong(document: Document, key: str, wrong: float = 1.0) -> Document:
    result = copy.deepcopy(document)
    for entry in result["benchmarks"]:
        if key_of(entry) == key:
            entry["wrong"] = wrong
    return result


def without(document: Document, keys: Iterable[str]) -> Document:
    dropped = set(keys)
    result = copy.deepcopy(document)
    result["benchmarks"] = [e for e in result["benchmarks"] if key_of(e) not in dropped]
    return result


def write(directory: Path, name: str, document: Document) -> Path:
    path = directory / name
    path.write_text(json.dumps(document))
    return path


def run_of(rows: dict[str, list[float]], path: str = "<made up>", processes: bool = False) -> Run:
    """A run with the given repetition times per key, for testing the verdict rules directly;
    each repetition measured by its own process when `processes`, else all by one."""

    def row(key: str, times: list[float]) -> Row:
        figures = [
            Repetition(t, process=f"{path}-{i}" if processes else None) for i, t in enumerate(times)
        ]
        return Row(name=parse_name(key), seconds=list(times), repetition_figures=figures)

    return Run(
        path=path,
        context={"handoff_version": "0.1.0"},
        ceilings={},
        rows={key: row(key, times) for key, times in rows.items()},
    )

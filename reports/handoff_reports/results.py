"""Reads the Google Benchmark JSON that handoff_bench writes, and nothing else.

One `Run` is one results file: its environment manifest (`context.handoff_*`), the ceilings that run
measured (`handoff_ceilings`), and one `Row` per benchmark, with every repetition's time kept.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from handoff_reports.names import BenchmarkName, parse_name

SECONDS_PER_UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
STAGES = ("prep", "serialize", "h2d", "kernel", "d2h", "deserialize", "post", "wait")


class ResultsError(ValueError):
    """A file that is not handoff_bench's Google Benchmark JSON, or is damaged."""


@dataclass(frozen=True)
class Ceiling:
    name: str
    value: float
    unit: str  # "bytes_per_second" or "seconds"

    @property
    def is_latency(self) -> bool:
        return self.unit == "seconds"


@dataclass
class Row:
    """One benchmark of one run: all its repetitions, and the counters of the first."""

    name: BenchmarkName
    seconds: list[float] = field(default_factory=list)
    counters: dict[str, float] = field(default_factory=dict)
    wrong: float = 0.0
    verified: float = 0.0
    error: str | None = None
    floors: list[float] = field(default_factory=list)
    floor_missing_ceiling: str | None = None
    scaling_efficiency: float | None = None
    scaling_baseline: str | None = None

    @property
    def key(self) -> str:
        return self.name.key

    @property
    def repetitions(self) -> int:
        return len(self.seconds)

    @property
    def median_seconds(self) -> float:
        return statistics.median(self.seconds) if self.seconds else math.nan

    @property
    def cv(self) -> float:
        """Coefficient of variation of the repetitions' times; nan with fewer than two."""
        if len(self.seconds) < 2:
            return math.nan
        mean = statistics.fmean(self.seconds)
        return statistics.stdev(self.seconds) / mean if mean > 0 else math.nan

    @property
    def floor_seconds(self) -> float | None:
        """The median of the repetitions' floors: each run prices it with its own ceilings."""
        return statistics.median(self.floors) if self.floors else None

    @property
    def efficiency(self) -> float | None:
        """The floor over the median time: the fraction of this run's ceilings reached."""
        median = self.median_seconds
        if self.floor_seconds is None or not median > 0:
            return None
        return self.floor_seconds / median

    @property
    def suspect(self) -> bool:
        efficiency = self.efficiency
        return efficiency is not None and efficiency > 1.0

    @property
    def failed(self) -> bool:
        return self.error is not None or self.wrong != 0

    @property
    def bytes_per_iteration(self) -> float | None:
        return self.counters.get("bytes")

    @property
    def items_per_iteration(self) -> float | None:
        return self.counters.get("items")

    @property
    def stages(self) -> dict[str, float]:
        return {s: self.counters[f"stage.{s}"] for s in STAGES if f"stage.{s}" in self.counters}


@dataclass
class Run:
    path: str
    context: dict[str, Any]
    ceilings: dict[str, Ceiling]
    rows: dict[str, Row]

    @property
    def manifest(self) -> dict[str, str]:
        return {k: str(v) for k, v in self.context.items() if k.startswith("handoff_")}

    @property
    def date(self) -> str:
        return str(self.context.get("date", ""))

    @property
    def gpu_count(self) -> int:
        try:
            return int(self.context.get("handoff_gpu_count", 0))
        except (TypeError, ValueError):
            return 0

    @property
    def skipped_families(self) -> list[tuple[str, str]]:
        """Families this machine could not run, each with the reason handoff_bench gave."""
        text = str(self.context.get("handoff_skipped_families", "none"))
        skipped: list[tuple[str, str]] = []
        # "<reason>: <family>, <family>; <reason>: <family>"; a reason may itself hold ": ".
        for group in filter(None, (part.strip() for part in text.split("; "))):
            if group == "none":
                continue
            reason, _, families = group.rpartition(": ")
            skipped.extend((family, reason) for family in families.split(", "))
        return skipped

    def benchmark_rows(self) -> list[Row]:
        """Every row except the ceilings, in the order the run reported them."""
        return [row for row in self.rows.values() if row.name.pattern != "ceilings"]


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _seconds(entry: Mapping[str, Any], where: str) -> float:
    unit = entry.get("time_unit", "ns")
    if unit not in SECONDS_PER_UNIT:
        raise ResultsError(f"{where}: unknown time_unit {unit!r}")
    time = _number(entry.get("real_time"))
    if time is None:
        raise ResultsError(f"{where}: real_time is missing or not a number")
    return time * SECONDS_PER_UNIT[unit]


IGNORED_FIELDS = {
    "name", "run_name", "run_type", "family_index", "per_family_instance_index", "repetitions",
    "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit",
    "aggregate_name", "aggregate_unit", "error_occurred", "error_message", "label",
}  # fmt: skip


def _add_entry(rows: dict[str, Row], entry: Mapping[str, Any], where: str) -> None:
    run_name = entry.get("run_name") or entry.get("name")
    if not isinstance(run_name, str) or not run_name:
        raise ResultsError(f"{where}: a benchmark without a name")
    name = parse_name(run_name)
    row = rows.get(name.key)
    if row is None:
        row = rows[name.key] = Row(name=name)
    if entry.get("error_occurred"):
        row.error = str(entry.get("error_message") or "error")
        return
    row.seconds.append(_seconds(entry, where))
    if not row.counters:
        row.counters = {
            key: number
            for key, value in entry.items()
            if key not in IGNORED_FIELDS and (number := _number(value)) is not None
        }
        missing = entry.get("floor_missing_ceiling")
        row.floor_missing_ceiling = str(missing) if missing else None
        row.scaling_efficiency = _number(entry.get("scaling_efficiency"))
        baseline = entry.get("scaling_baseline")
        row.scaling_baseline = str(baseline) if baseline else None
    if (floor := _number(entry.get("floor_seconds"))) is not None:
        row.floors.append(floor)
    # Every repetition verified its own output: the worst one is the row's.
    row.wrong = max(row.wrong, _number(entry.get("wrong")) or 0.0)
    row.verified = max(row.verified, _number(entry.get("verified")) or 0.0)


def _ceilings(document: Mapping[str, Any], where: str) -> dict[str, Ceiling]:
    raw = document.get("handoff_ceilings", {})
    if not isinstance(raw, Mapping):
        raise ResultsError(f"{where}: handoff_ceilings is not an object")
    ceilings = {}
    for name, figure in raw.items():
        value = _number(figure.get("value")) if isinstance(figure, Mapping) else None
        unit = figure.get("unit") if isinstance(figure, Mapping) else None
        if value is None or unit not in ("bytes_per_second", "seconds"):
            raise ResultsError(f"{where}: ceiling {name!r} has no numeric value and known unit")
        ceilings[name] = Ceiling(name, value, str(unit))
    return ceilings


def parse_results(document: Any, where: str = "<results>") -> Run:
    if not isinstance(document, Mapping):
        raise ResultsError(f"{where}: not a JSON object")
    context = document.get("context")
    benchmarks = document.get("benchmarks")
    if not isinstance(context, Mapping) or not isinstance(benchmarks, list):
        raise ResultsError(f"{where}: not Google Benchmark JSON (no context or benchmarks)")
    if "handoff_version" not in context:
        raise ResultsError(
            f"{where}: not written by handoff_bench (its context has no handoff_version manifest)"
        )
    rows: dict[str, Row] = {}
    aggregates: list[Mapping[str, Any]] = []
    for index, entry in enumerate(benchmarks):
        if not isinstance(entry, Mapping):
            raise ResultsError(f"{where}: benchmarks[{index}] is not an object")
        if entry.get("run_type", "iteration") == "aggregate":
            aggregates.append(entry)
        else:
            _add_entry(rows, entry, f"{where}: benchmarks[{index}]")
    # A run written with --benchmark_report_aggregates_only keeps only the aggregates: the median
    # then stands in for the repetitions.
    for entry in aggregates:
        name = parse_name(str(entry.get("run_name") or entry.get("name")))
        if name.key not in rows and entry.get("aggregate_name") == "median":
            _add_entry(rows, entry, f"{where}: {name.key} median")
    return Run(path=where, context=dict(context), ceilings=_ceilings(document, where), rows=rows)


def _read_json(path: Path) -> Any:
    try:
        text = path.read_text()
    except OSError as error:
        raise ResultsError(f"{path}: cannot read: {error.strerror}") from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ResultsError(f"{path}: not valid JSON: {error}") from error


def read_results_document(path: str | Path) -> dict[str, Any]:
    """The file's JSON as it stands, once it has passed every check `load_results` makes."""
    document = _read_json(Path(path))
    parse_results(document, str(path))
    return dict(document)


def load_results(path: str | Path) -> Run:
    return parse_results(_read_json(Path(path)), str(path))


def load_all(paths: Iterable[str | Path]) -> list[Run]:
    return [load_results(path) for path in paths]

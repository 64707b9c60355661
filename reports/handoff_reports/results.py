"""Reads the Google Benchmark JSON that handoff_bench writes, and nothing else.

One `Run` is one results file: its environment manifest (`context.handoff_*`), the ceilings that run
measured (`handoff_ceilings`), and one `Row` per benchmark, with every repetition's time kept.

Reading is strict. A file that cannot be read or parsed, or is not handoff_bench's JSON, is a
ResultsError (see input_files.py). Inside a readable file, a damaged figure that a verdict rests on
(CHECKED_FIGURES: a NaN, an infinity, a null, a negative count, a time of zero or less) is a
defect of its row: the repetition is left out and the row fails (`Row.failed`), so that no
command reads a NaN wrong count as verified or a NaN time as fast. Other counters that are not
finite are left out of `Row.counters` and named in `Row.dropped_counters`. Ceilings and the run
state must be finite, or the file is refused.

Each repetition carries the token of the process that measured it (`handoff_process`), so that a
row can be summed up per process (`Row.processes`): the level at which a figure moves most. A file
written before processes were named is one process, whatever its repetitions.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from handoff_reports.input_files import InputError, is_finite_number, read_json
from handoff_reports.names import BenchmarkName, parse_name

SECONDS_PER_UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
STAGES = ("prep", "serialize", "h2d", "kernel", "d2h", "deserialize", "post", "wait")


class ResultsError(InputError):
    """A file that is not handoff_bench's Google Benchmark JSON, or is damaged."""


@dataclass(frozen=True)
class Ceiling:
    name: str
    value: float
    unit: str  # "bytes_per_second" or "seconds"

    @property
    def is_latency(self) -> bool:
        return self.unit == "seconds"


@dataclass(frozen=True)
class Repetition:
    """One repetition's figure: its median sample, and that median's 95% interval when written.

    Files written before noise-targeted sampling have no interval: ci_low and ci_high are None.
    """

    seconds: float
    ci_low: float | None = None
    ci_high: float | None = None
    noise: float | None = None
    samples: float | None = None
    noisy: bool = False
    clock_lowered: bool = False
    # `handoff_process`: a token unique to the process that measured it. None in files written
    # before processes were named: such a file's rows count as one process (see `by_process`).
    process: str | None = None
    # `voluntary_switches_per_run`: how often its processes slept per run; None where not written.
    sleeps_per_run: float | None = None
    # `involuntary_switches_per_run`: how often their threads were preempted or handed their core
    # on, per run; `host_busy` and `host_steal`: the machine's CPU in use and taken by a
    # hypervisor over the row. None where not written.
    preemptions_per_run: float | None = None
    host_busy: float | None = None
    host_steal: float | None = None

    @property
    def has_interval(self) -> bool:
        return self.ci_low is not None and self.ci_high is not None

    @property
    def relative_noise(self) -> float | None:
        """The relative half-width of its median's 95% interval: `noise`, else from the
        interval's ends; None where neither was written or a single sample has no spread."""
        if self.samples is not None and self.samples < 2:
            return None
        if self.noise is not None:
            return self.noise
        if self.ci_low is None or self.ci_high is None or not self.seconds > 0:
            return None
        return (self.ci_high - self.ci_low) / 2 / self.seconds


@dataclass(frozen=True)
class ProcessFigure:
    """One process's figure for a row: the median of its repetitions' medians.

    Repetitions of one process (handoff_bench --handoff-passes) share its memory layout, pages
    and machine state, so they are one draw of the between-process variation, not several."""

    process: str | None
    seconds: float
    repetitions: int
    noise: float | None  # the median of its repetitions' relative noise; None where unknown
    # The medians of its repetitions' (Repetition); None where unknown.
    sleeps_per_run: float | None = None
    preemptions_per_run: float | None = None
    host_busy: float | None = None
    host_steal: float | None = None


def _median_of_known(values: Iterable[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return statistics.median(known) if known else None


def by_process(figures: Iterable[Repetition]) -> list[ProcessFigure]:
    """The repetitions grouped by the process that measured them, in order of first appearance.

    Repetitions without a token (files written before processes were named) are one process:
    every row of such a file was measured by the one process that wrote it."""
    groups: dict[str | None, list[Repetition]] = {}
    for figure in figures:
        groups.setdefault(figure.process, []).append(figure)
    processes = []
    for token, members in groups.items():
        processes.append(
            ProcessFigure(
                process=token,
                seconds=statistics.median(m.seconds for m in members),
                repetitions=len(members),
                noise=_median_of_known(m.relative_noise for m in members),
                sleeps_per_run=_median_of_known(m.sleeps_per_run for m in members),
                preemptions_per_run=_median_of_known(m.preemptions_per_run for m in members),
                host_busy=_median_of_known(m.host_busy for m in members),
                host_steal=_median_of_known(m.host_steal for m in members),
            )
        )
    return processes


@dataclass
class Row:
    """One benchmark of one run: all its repetitions, and the counters of the first."""

    name: BenchmarkName
    seconds: list[float] = field(default_factory=list)
    # Beside `seconds`, one per repetition: its median with the interval (None in old files).
    repetition_figures: list[Repetition] = field(default_factory=list)
    counters: dict[str, float] = field(default_factory=dict)
    wrong: float = 0.0
    verified: float = 0.0
    error: str | None = None
    floors: list[float] = field(default_factory=list)
    # Beside `floors`, one per repetition: the floor in words, each term with the ceiling figure
    # it was priced at ("" where a file has none).
    floor_models: list[str] = field(default_factory=list)
    floor_missing_ceiling: str | None = None
    scaling_efficiency: float | None = None
    scaling_baseline: str | None = None
    # Damaged figures of CHECKED_FIGURES, e.g. "repetition 2: wrong is NaN": each fails the row.
    defects: list[str] = field(default_factory=list)
    # Other counters that were not finite, left out of `counters` (they decide nothing).
    dropped_counters: list[str] = field(default_factory=list)

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
        """The lowest of the repetitions' floors. Each process prices the row with its own
        ceilings, and a ceiling is the best this machine can do: the best it did in this run is
        the fastest process's. A ceiling whose processes part by more than the rows it bounds
        (a pipe's, by tens of percent) would otherwise leave rows faster than their floor."""
        return min(self.floors) if self.floors else None

    @property
    def floor_model(self) -> str:
        """The model of the repetition whose floor is floor_seconds ("" where none was
        written)."""
        if not self.floors or len(self.floor_models) != len(self.floors):
            return ""
        return self.floor_models[self.floors.index(min(self.floors))]

    @property
    def efficiency(self) -> float | None:
        """The floor over the median time: the fraction of this run's ceilings reached."""
        median = self.median_seconds
        if self.floor_seconds is None or not median > 0:
            return None
        return self.floor_seconds / median

    @property
    def slowest_plausible_seconds(self) -> float:
        """The slow end of the row's interval: the highest interval end of its repetitions, or
        their median where one has no interval (an old file's)."""
        figures = self.repetition_figures or [Repetition(seconds) for seconds in self.seconds]
        return max(r.ci_high if r.ci_high is not None else r.seconds for r in figures)

    @property
    def suspect(self) -> bool:
        """Faster than its floor even at the slow end of its interval: the floor's model or a
        ceiling is wrong, or the run is. A row whose interval reaches its floor is within its
        noise of it, not above it."""
        floor = self.floor_seconds
        if floor is None or not self.seconds:
            return False
        return floor > self.slowest_plausible_seconds

    @property
    def failed(self) -> bool:
        return self.error is not None or self.wrong != 0 or bool(self.defects)

    @property
    def failure(self) -> str | None:
        """Why the row failed, in a few words; None when it did not."""
        if self.defects:
            return "damaged figures: " + "; ".join(self.defects)
        if self.error is not None:
            return f"errored: {self.error}"
        if self.wrong != 0:
            return f"wrong result ({self.wrong:g} wrong)"
        return None

    @property
    def bytes_per_iteration(self) -> float | None:
        return self.counters.get("bytes")

    @property
    def items_per_iteration(self) -> float | None:
        return self.counters.get("items")

    @property
    def stages(self) -> dict[str, float]:
        return {s: self.counters[f"stage.{s}"] for s in STAGES if f"stage.{s}" in self.counters}

    @property
    def figures(self) -> list[Repetition]:
        """One per repetition; rows built from bare `seconds` get figures without intervals."""
        if len(self.repetition_figures) == len(self.seconds):
            return self.repetition_figures
        return [Repetition(seconds) for seconds in self.seconds]

    @property
    def processes(self) -> list[ProcessFigure]:
        """The row's figure per process that measured it (see `by_process`)."""
        return by_process(self.figures)

    @property
    def has_intervals(self) -> bool:
        """Whether every repetition carries its median's interval (files from issue 14 on)."""
        figures = self.figures
        return bool(figures) and all(figure.has_interval for figure in figures)

    @property
    def noise(self) -> float | None:
        """The largest noise of the repetitions (relative half-width); None in old files and
        where every repetition took one sample."""
        found = [
            n for f in self.figures if f.noise is not None and (n := f.relative_noise) is not None
        ]
        return max(found) if found else None

    @property
    def samples(self) -> float | None:
        """The fewest timed samples of the repetitions; None in old files."""
        found = [f.samples for f in self.figures if f.samples is not None]
        return min(found) if found else None

    @property
    def noisy(self) -> bool:
        """Any repetition stopped at its time cap with noise above its target."""
        return any(figure.noisy for figure in self.figures)

    @property
    def clock_lowered(self) -> bool:
        """Any repetition saw a lowered GPU clock (thermal, power, or below 90% of its max)."""
        return any(figure.clock_lowered for figure in self.figures)

    @property
    def fixed_samples(self) -> bool:
        return bool(self.counters.get("fixed_samples"))

    @property
    def noise_target(self) -> float | None:
        return self.counters.get("noise_target")

    @property
    def clock(self) -> int | None:
        """0 CUDA events, 1 wall clock, 2 the variant's own clock; None in old files."""
        clock = self.counters.get("clock")
        return int(clock) if clock is not None else None

    @property
    def planted_slowdown(self) -> float | None:
        return self.counters.get("planted_slowdown")


# Settings that change how a figure is measured: runs that differ in one are not comparable.
MEASUREMENT_SETTINGS = (
    "profile",
    "max_noise",
    "min_samples",
    "min_time",
    "timeout",
    "max_elements",
    "spin",
    "spin_us",
    "worker_cores",
)
# What a file written before a setting was recorded ran with: its default then.
MEASUREMENT_DEFAULTS = {"spin": "yield", "spin_us": "50", "worker_cores": "scheduler"}
# Settings that change what was run, or in which order, but not how one row is measured.
INFORMATIVE_SETTINGS = (
    "filter", "repetitions", "passes", "processes", "shuffle_seed", "cold_samples",
)  # fmt: skip


@dataclass(frozen=True)
class RunSettings:
    """The context's setting_* entries, as written (strings); None where a file has none."""

    profile: str | None = None
    max_noise: str | None = None
    min_samples: str | None = None
    min_time: str | None = None
    timeout: str | None = None
    max_elements: str | None = None
    cold_samples: str | None = None
    filter: str | None = None
    repetitions: str | None = None
    passes: str | None = None
    processes: str | None = None  # how many processes shared the row's time (ci/bench)
    shuffle_seed: str | None = None
    planted_slowdown: str | None = None
    spin: str | None = None  # HANDOFF_SPIN: how a waiting reader's spin offers the core
    spin_us: str | None = None  # HANDOFF_SPIN_US: how long it spins before it sleeps
    worker_cores: str | None = None  # HANDOFF_WORKER_CORES: pools held on cores, or not
    gpu_sm_clock_mhz_at_start: str | None = None
    gpu_mem_clock_mhz_at_start: str | None = None
    gpu_clock_event_reasons_at_start: str | None = None

    @classmethod
    def from_context(cls, context: Mapping[str, Any]) -> RunSettings:
        def text(key: str) -> str | None:
            value = context.get(key)
            return None if value is None else str(value)

        names = [name for name in cls.__dataclass_fields__ if not name.startswith("gpu_")]
        values = {name: text(f"setting_{name}") for name in names}
        clocks = {name: text(name) for name in cls.__dataclass_fields__ if name.startswith("gpu_")}
        return cls(**values, **clocks)

    @property
    def known(self) -> bool:
        """Whether the file said how it was made (files before issue 14 did not)."""
        return any(getattr(self, name) is not None for name in MEASUREMENT_SETTINGS)

    def measurement(self) -> dict[str, str | None]:
        return {
            name: getattr(self, name) or MEASUREMENT_DEFAULTS.get(name)
            for name in MEASUREMENT_SETTINGS
        }

    def informative(self) -> dict[str, str | None]:
        return {name: getattr(self, name) for name in INFORMATIVE_SETTINGS}

    @property
    def planted(self) -> tuple[float, str] | None:
        """(percent, regex) of a planted slowdown ("PERCENT:REGEX"), None when off."""
        if not self.planted_slowdown:
            return None
        percent, _, regex = self.planted_slowdown.partition(":")
        try:
            return float(percent), regex
        except ValueError:
            return math.nan, regex


def measurement_differences(first: RunSettings, second: RunSettings) -> list[tuple[str, str, str]]:
    """(setting, first value, second value) for each measurement setting that differs, where
    both runs state their settings; runs of unknown settings are compared (with a warning)."""
    if not first.known or not second.known:
        return []
    return [
        (name, before or "-", after or "-")
        for name, before in first.measurement().items()
        if before != (after := second.measurement()[name])
    ]


@dataclass(frozen=True)
class RunState:
    """`handoff_run`: whether the file holds a finished run. Old files say nothing: complete."""

    state: str = "complete"
    reason: str = ""
    rows: int | None = None

    @property
    def incomplete(self) -> bool:
        return self.state == "incomplete"


@dataclass(frozen=True)
class CeilingsSource:
    """`handoff_ceilings_source`: measured in this run, or reused from an earlier run's file."""

    kind: str = "measured"
    file: str = ""
    measured_at: str = ""
    note: str = ""

    @property
    def line(self) -> str:
        if self.kind == "measured":
            return "measured in this run"
        if self.note:
            return self.note
        return f"reused from {self.file or 'an earlier run'}" + (
            f", measured {self.measured_at}" if self.measured_at else ""
        )


@dataclass
class Run:
    path: str
    context: dict[str, Any]
    ceilings: dict[str, Ceiling]
    rows: dict[str, Row]
    run_state: RunState = field(default_factory=RunState)
    ceilings_source: CeilingsSource | None = None

    @property
    def settings(self) -> RunSettings:
        return RunSettings.from_context(self.context)

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
    """A finite JSON number as a float; None for anything else (missing, text, null, NaN, ±inf).

    The figures a verdict rests on are checked by `_defect` before they get here, so for them a
    damaged value is a defect of the row, never a quiet None."""
    return float(value) if is_finite_number(value) else None


# The figures a row is judged by, and what each must be: a time is positive, a count, a noise or
# a flag is not negative. Anything else there is a defect that fails the row.
POSITIVE, NOT_NEGATIVE = "a positive time", "not negative"
CHECKED_FIGURES = {
    "real_time": POSITIVE, "ci_low": POSITIVE, "ci_high": POSITIVE, "floor_seconds": POSITIVE,
    "wrong": NOT_NEGATIVE, "verified": NOT_NEGATIVE, "samples": NOT_NEGATIVE,
    "noise": NOT_NEGATIVE, "noisy": NOT_NEGATIVE, "clock_lowered": NOT_NEGATIVE,
}  # fmt: skip


def _described(value: Any) -> str:
    if value is None:
        return "null"  # how handoff_bench writes Google Benchmark's NaN
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("-inf" if value < 0 else "inf")
    text = json.dumps(value)
    return f"not a number ({text if len(text) <= 24 else text[:24] + '...'})"


def _defect(entry: Mapping[str, Any], field_name: str) -> str | None:
    """Why entry[field_name] is not a usable figure; None when it is, or when it is absent."""
    if field_name not in entry:
        return None
    value = entry[field_name]
    if not is_finite_number(value):
        return f"{field_name} is {_described(value)}"
    rule = CHECKED_FIGURES[field_name]
    if value < 0 or (rule is POSITIVE and value == 0):
        return f"{field_name} is {value:g}, not {rule}"
    return None


def _seconds(entry: Mapping[str, Any], where: str) -> float:
    unit = entry.get("time_unit", "ns")
    if not isinstance(unit, str) or unit not in SECONDS_PER_UNIT:
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


def _process_token(entry: Mapping[str, Any]) -> str | None:
    """The entry's `handoff_process`, None where absent (older files) or not a usable token."""
    token = entry.get("handoff_process")
    return token if isinstance(token, str) and token else None


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
    if "real_time" not in entry:
        raise ResultsError(f"{where}: real_time is missing or not a number")
    defects = [found for name in CHECKED_FIGURES if (found := _defect(entry, name)) is not None]
    if defects:
        # The repetition is left out whole: a figure beside a damaged one is no evidence either.
        index = entry.get("repetition_index")
        prefix = f"repetition {index}: " if is_finite_number(index) else ""
        row.defects.extend(prefix + defect for defect in defects)
        return
    seconds = _seconds(entry, where)
    row.seconds.append(seconds)
    row.repetition_figures.append(
        Repetition(
            seconds=seconds,
            ci_low=_number(entry.get("ci_low")),
            ci_high=_number(entry.get("ci_high")),
            noise=_number(entry.get("noise")),
            samples=_number(entry.get("samples")),
            noisy=bool(_number(entry.get("noisy"))),
            clock_lowered=bool(_number(entry.get("clock_lowered"))),
            process=_process_token(entry),
            sleeps_per_run=_number(entry.get("voluntary_switches_per_run")),
            preemptions_per_run=_number(entry.get("involuntary_switches_per_run")),
            host_busy=_number(entry.get("host_busy")),
            host_steal=_number(entry.get("host_steal")),
        )
    )
    if not row.counters:
        row.counters = {
            key: number
            for key, value in entry.items()
            if key not in IGNORED_FIELDS and (number := _number(value)) is not None
        }
        row.dropped_counters = [
            key
            for key, value in entry.items()
            if isinstance(value, float) and not math.isfinite(value) and key not in IGNORED_FIELDS
        ]
        missing = entry.get("floor_missing_ceiling")
        row.floor_missing_ceiling = str(missing) if missing else None
        row.scaling_efficiency = _number(entry.get("scaling_efficiency"))
        baseline = entry.get("scaling_baseline")
        row.scaling_baseline = str(baseline) if baseline else None
    if (floor := _number(entry.get("floor_seconds"))) is not None:
        row.floors.append(floor)
        model = entry.get("floor_model")
        row.floor_models.append(model if isinstance(model, str) else "")
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
        if value <= 0:
            raise ResultsError(f"{where}: ceiling {name!r} has value {value:g}, not positive")
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
    return Run(
        path=where,
        context=dict(context),
        ceilings=_ceilings(document, where),
        rows=rows,
        run_state=_run_state(document, where),
        ceilings_source=_ceilings_source(document, where),
    )


def _run_state(document: Mapping[str, Any], where: str) -> RunState:
    raw = document.get("handoff_run")
    if raw is None:
        return RunState()
    if not isinstance(raw, Mapping):
        raise ResultsError(f"{where}: handoff_run is not an object")
    rows = _number(raw.get("rows"))
    if "rows" in raw and raw["rows"] is not None and (rows is None or rows < 0):
        raise ResultsError(f"{where}: handoff_run.rows is {_described(raw['rows'])}, not a count")
    return RunState(
        state=str(raw.get("state") or "complete"),
        reason=str(raw.get("reason") or ""),
        rows=int(rows) if rows is not None else None,
    )


def _ceilings_source(document: Mapping[str, Any], where: str) -> CeilingsSource | None:
    raw = document.get("handoff_ceilings_source")
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise ResultsError(f"{where}: handoff_ceilings_source is not an object")
    return CeilingsSource(
        kind=str(raw.get("kind") or "measured"),
        file=str(raw.get("file") or ""),
        measured_at=str(raw.get("measured_at") or ""),
        note=str(raw.get("note") or ""),
    )


def _read_json(path: Path) -> Any:
    try:
        return read_json(path)
    except InputError as error:
        raise ResultsError(str(error)) from error


def read_results_document(path: str | Path) -> dict[str, Any]:
    """The file's JSON as it stands, once it has passed every check `load_results` makes."""
    document = _read_json(Path(path))
    parse_results(document, str(path))
    return dict(document)


def load_results(path: str | Path) -> Run:
    return parse_results(_read_json(Path(path)), str(path))


def load_all(paths: Iterable[str | Path]) -> list[Run]:
    return [load_results(path) for path in paths]


def merge_runs(runs: list[Run]) -> Run:
    """All files' rows in one run. A name that two files share keeps both, the later one suffixed
    with its file's name, so nothing is silently dropped."""
    merged = Run(path=", ".join(r.path for r in runs), context=dict(runs[0].context),
                 ceilings=dict(runs[0].ceilings), rows={})  # fmt: skip
    for run in runs:
        for ceiling in run.ceilings.values():
            merged.ceilings.setdefault(ceiling.name, ceiling)
        for key, row in run.rows.items():
            merged.rows[key if key not in merged.rows else f"{key} [{Path(run.path).name}]"] = row
    return merged

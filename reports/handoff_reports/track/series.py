"""Series: one benchmark on one machine, night by night, and the known breaks between nights.

A known break is a change in what the benchmark ran on, or how it was measured, rather than in the
code under test: the driver, the CUDA runtime, or the measurement settings (profile, noise target,
time caps, size cap; "unknown" for files from before setting_* existed). A step there is expected,
so change points are only looked for between breaks. A changed GPU is the strongest break of all:
machines are keyed by their GPUs' UUIDs, so the new GPU starts a new series and is never compared
with the old one.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from handoff_reports.track.identity import RunIdentity, settings_change
from handoff_reports.track.store import HistoryStore, RowKey, StoredRun


@dataclass(frozen=True)
class Point:
    run: StoredRun
    seconds: tuple[float, ...]  # every repetition of the night

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def low(self) -> float:
        return min(self.seconds)

    @property
    def high(self) -> float:
        return max(self.seconds)


@dataclass(frozen=True)
class Series:
    machine: str
    machine_label: str
    name: str
    points: tuple[Point, ...]  # in time order

    @property
    def pattern(self) -> str:
        return self.name.split("/", 1)[0]


@dataclass(frozen=True)
class KnownBreak:
    machine_label: str
    before: StoredRun
    after: StoredRun  # the first run on the new software or hardware
    what: str  # e.g. "driver 570.1 -> 580.2"


def break_between(before: RunIdentity, after: RunIdentity) -> str | None:
    """What changed between two runs of one machine that is not the code, or None."""
    changes = []
    if before.driver != after.driver:
        changes.append(f"driver {before.driver} -> {after.driver}")
    if before.cuda_runtime != after.cuda_runtime:
        changes.append(f"CUDA runtime {before.cuda_runtime} -> {after.cuda_runtime}")
    # Nights measured with other settings (noise target, time caps, size cap, profile) are not
    # comparable: a step there is a known break, like a new driver.
    if (settings := settings_change(before.settings, after.settings)) is not None:
        changes.append(settings)
    return "; ".join(changes) or None


def known_breaks(runs: Sequence[StoredRun]) -> list[KnownBreak]:
    """Breaks between consecutive runs of each machine; `runs` grouped by machine, in time order."""
    breaks = []
    for before, after in zip(runs, runs[1:], strict=False):
        if before.identity.machine != after.identity.machine:
            continue
        what = break_between(before.identity, after.identity)
        if what is not None:
            breaks.append(KnownBreak(after.identity.machine_label, before, after, what))
    return breaks


def segments(points: Sequence[Point]) -> list[range]:
    """Index ranges of `points` with no known break inside: where change points may be sought.

    Breaks are judged between consecutive points of the series itself, so a benchmark missing
    on the night of a driver update still splits at the update."""
    starts = [0] + [
        index
        for index in range(1, len(points))
        if break_between(points[index - 1].run.identity, points[index].run.identity)
    ]
    ends = starts[1:] + [len(points)]
    return [range(start, end) for start, end in zip(starts, ends, strict=True) if end > start]


def build_series(runs: Iterable[StoredRun], seconds: dict[RowKey, list[float]]) -> list[Series]:
    by_id = {run.id: run for run in runs}
    grouped: dict[tuple[str, str], list[Point]] = {}
    for (run_id, name), values in seconds.items():
        run = by_id.get(run_id)
        if run is not None and values:
            grouped.setdefault((run.identity.machine, name), []).append(Point(run, tuple(values)))
    series = []
    for (machine, name), points in grouped.items():
        points.sort(key=lambda point: (point.run.identity.date, point.run.id))
        label = points[0].run.identity.machine_label
        series.append(Series(machine, label, name, tuple(points)))
    series.sort(key=lambda one: (one.name, one.machine))
    return series


@dataclass(frozen=True)
class History:
    runs: list[StoredRun]
    series: list[Series]
    breaks: list[KnownBreak]
    # Stored figures that are not finite or are negative, one line each; left out of the series.
    damaged: list[str] = field(default_factory=list)


def read_history(store: HistoryStore, match: re.Pattern[str] | None = None) -> History:
    runs = store.runs()
    series = build_series(runs, store.passing_repetitions(match))
    return History(
        runs=runs,
        series=series,
        breaks=known_breaks(runs),
        damaged=store.damaged_figures(match),
    )

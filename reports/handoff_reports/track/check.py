"""Change points in each series, with apache-otava's E-divisive analysis, and what they mean.

The value of a night is the median of its repetitions. otava looks for change points within each
stretch between known breaks; each one it keeps is judged by the median of the nights before it
against the median of the nights after it (up to the neighbouring change points): time up by more
than the threshold is a regression, down by more is an improvement, and smaller steps are ignored.

A history holding damaged figures (a time or a count that is not finite, or is negative) fails the
check whatever its change points: the series leave those figures out, so a check that passed
would have passed data it never looked at.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from otava.analysis import compute_change_points

from handoff_reports.track.series import History, KnownBreak, Point, Series, segments

Kind = Literal["regression", "improvement"]


@dataclass(frozen=True)
class CheckOptions:
    threshold: float = 0.05  # relative change in median time that counts
    max_pvalue: float = 0.001  # otava's significance level
    # Only change points among the last `recent` nights of a series are reported (0: all), so a
    # regression fails the nightly for two weeks, long enough to be seen, and then is history.
    recent: int = 14


@dataclass(frozen=True)
class Change:
    series: Series
    index: int  # the first point after the change
    before: float  # median seconds of the nights before, back to the previous change or break
    after: float

    @property
    def relative(self) -> float:
        return self.after / self.before - 1.0

    @property
    def kind(self) -> Kind:
        return "regression" if self.relative > 0 else "improvement"

    @property
    def point(self) -> Point:
        return self.series.points[self.index]

    def is_recent(self, recent: int) -> bool:
        return recent <= 0 or self.index >= len(self.series.points) - recent


def _change_indices(values: Sequence[float], options: CheckOptions) -> list[int]:
    if len(values) < 3:  # no split of fewer nights can be significant
        return []
    change_points, _ = compute_change_points(
        list(values), max_pvalue=options.max_pvalue, min_magnitude=options.threshold
    )
    return sorted(int(point.index) for point in change_points)


def series_changes(series: Series, options: CheckOptions) -> list[Change]:
    """Every change beyond the threshold in the series' whole history, in time order."""
    changes = []
    medians = [point.median for point in series.points]
    for segment in segments(series.points):
        values = medians[segment.start : segment.stop]
        inside = _change_indices(values, options)
        bounds = [0, *inside, len(values)]
        for position, index in enumerate(inside):
            before = statistics.median(values[bounds[position] : index])
            after = statistics.median(values[index : bounds[position + 2]])
            change = Change(series, segment.start + index, before, after)
            if before > 0 and abs(change.relative) > options.threshold:
                changes.append(change)
    return changes


@dataclass(frozen=True)
class CheckResult:
    history: History
    changes: list[Change]  # all of them, recent or not: the dashboard marks every one
    options: CheckOptions

    def reported(self, kind: Kind) -> list[Change]:
        return [c for c in self.changes if c.kind == kind and c.is_recent(self.options.recent)]

    @property
    def regressions(self) -> list[Change]:
        return self.reported("regression")

    @property
    def failed(self) -> bool:
        return bool(self.regressions or self.history.damaged)


def check(history: History, options: CheckOptions) -> CheckResult:
    changes = [change for one in history.series for change in series_changes(one, options)]
    return CheckResult(history=history, changes=changes, options=options)


def format_seconds(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if abs(seconds) >= scale:
            return f"{seconds / scale:.4g} {unit}"
    return f"{seconds / 1e-9:.4g} ns"


def night(point: Point) -> str:
    identity = point.run.identity
    return f"{identity.date} (commit {identity.commit})"


def _change_line(change: Change) -> str:
    return (
        f"  {change.series.name}\n"
        f"    on {change.series.machine_label}, from {night(change.point)}: "
        f"{format_seconds(change.before)} -> {format_seconds(change.after)} "
        f"({change.relative:+.1%})"
    )


def _break_line(known: KnownBreak) -> str:
    return f"  {known.machine_label}, at {known.after.identity.date}: {known.what}"


SECTIONS: tuple[tuple[Kind, str], ...] = (
    ("regression", "REGRESSIONS (slower)"),
    ("improvement", "improvements (faster)"),
)


def format_report(result: CheckResult) -> str:
    options = result.options
    scope = f"the last {options.recent} nights" if options.recent > 0 else "the whole history"
    lines = [
        f"{len(result.history.runs)} runs, {len(result.history.series)} series; change points "
        f"beyond {options.threshold:.0%} in {scope} (p <= {options.max_pvalue:g})"
    ]
    if result.history.breaks:
        count = len(result.history.breaks)
        lines.append(f"known breaks honoured, steps there are not regressions ({count}):")
        lines.extend(_break_line(known) for known in result.history.breaks)
    for kind, title in SECTIONS:
        changes = result.reported(kind)
        lines.append(f"{title}: {len(changes)}")
        lines.extend(_change_line(change) for change in changes)
    if damaged := result.history.damaged:
        lines.append(f"DAMAGED FIGURES in the history, left out of every series: {len(damaged)}")
        lines.extend(f"  {line}" for line in damaged)
    return "\n".join(lines)

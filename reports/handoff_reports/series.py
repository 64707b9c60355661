"""Rows of one pattern arranged for plotting: facets, series along the size axis, and the derived
figures (speedup over the best CPU reference, cold against warm)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from handoff_reports.results import Row

# Axes that split a pattern's rows into separate plots: rows that do different work are never
# drawn on one set of axes.
FACET_AXES = ("workload", "memory", "compute", "target", "scope", "data", "n")
# Axes that are a run's bookkeeping, not a line of its own.
IGNORED_AXES = ("iterations",)
CPU_VARIANT_PREFIX = "cpu_"
# The most lines one plot draws before its facet is split by another axis.
MAX_SERIES = 8


@dataclass
class Series:
    label: str
    rows: list[Row] = field(default_factory=list)

    @property
    def is_cpu(self) -> bool:
        return self.rows[0].name.variant.startswith(CPU_VARIANT_PREFIX)

    def points(self) -> list[tuple[float, Row]]:
        """One row per size, by size: where several files have the series at one size, the first
        file's, as the headline takes it (rows do not compare, so a tie must not reach them)."""
        first: dict[float, Row] = {}
        for row in self.rows:
            if row.seconds and not row.failed and row.name.size is not None:
                first.setdefault(row.name.size, row)
        return sorted(first.items(), key=lambda point: point[0])


@dataclass
class Facet:
    key: tuple[tuple[str, str], ...]
    title: str
    size_axis: str | None
    series: list[Series]

    def all_rows(self) -> list[Row]:
        return [row for series in self.series for row in series.rows]


def _facet_key(row: Row) -> tuple[tuple[str, str], ...]:
    """The row's facet axes, less its size axis: affine's `n` is the x axis of its plot, not one
    plot per value of it."""
    size_axis = row.name.size_axis
    return tuple((axis, value) for axis, value in row.name.axes
                 if axis in FACET_AXES and axis != size_axis)  # fmt: skip


def _series_axes(row: Row, dropped: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """The axes that tell a row's series apart within its facet: all but the facet's, the size
    and bookkeeping, and those a narrowed facet took into its title (`dropped`)."""
    size_axis = row.name.size_axis
    return list(row.name.axes_without(*FACET_AXES, *IGNORED_AXES, *dropped,
                                      *((size_axis,) if size_axis else ())))  # fmt: skip


def _series_label(row: Row, dropped: tuple[str, ...] = ()) -> str:
    axes = _series_axes(row, dropped)
    return " ".join([row.name.variant, *(f"{axis}:{value}" for axis, value in axes)])


def facets_of(rows: list[Row]) -> list[Facet]:
    """One facet per combination of facet axes; in each, a series per variant and other axes."""
    by_facet: dict[tuple[tuple[str, str], ...], dict[str, Series]] = defaultdict(dict)
    for row in rows:
        series = by_facet[_facet_key(row)].setdefault(
            _series_label(row), Series(_series_label(row))
        )
        series.rows.append(row)
    facets = []
    for key, labelled in by_facet.items():
        size_axis = next((r.name.size_axis for s in labelled.values() for r in s.rows), None)
        facets.extend(_narrow(key, size_axis, list(labelled.values())))
    return facets


def _title(key: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{axis} {value}" for axis, value in key) or "all rows"


def _narrow(
    key: tuple[tuple[str, str], ...],
    size_axis: str | None,
    series: list[Series],
    dropped: tuple[str, ...] = (),
) -> list[Facet]:
    """The facet, or where it would draw more than MAX_SERIES lines, one facet per value of the
    series axis with the most values (a GPU count, a partitioner), each narrowed again: a legend
    of eighteen entries is not read."""
    ordered = sorted(series, key=lambda one: one.label)
    values: dict[str, set[str]] = defaultdict(set)
    for one in ordered:
        for axis, value in _series_axes(one.rows[0], dropped):
            values[axis].add(value)
    splittable = [axis for axis, seen in values.items() if len(seen) > 1]
    if len(ordered) <= MAX_SERIES or not splittable:
        return [Facet(key, _title(key), size_axis, ordered)]
    axis = max(splittable, key=lambda name: (len(values[name]), name))
    narrower = (*dropped, axis)
    narrowed: dict[str, list[Series]] = defaultdict(list)
    for one in ordered:
        value = one.rows[0].name.axis(axis) or "-"
        narrowed[value].append(Series(_series_label(one.rows[0], narrower), one.rows))
    facets = []
    for value, members in sorted(narrowed.items()):
        facets.extend(_narrow((*key, (axis, value)), size_axis, members, narrower))
    return facets


def _compatible(cpu_row: Row, facet: Facet) -> bool:
    """A CPU row belongs to a facet unless one of its facet axes says otherwise: `cpu_serial`
    has no `target` axis and is the reference for both targets."""
    return all(dict(facet.key).get(axis, value) == value for axis, value in _facet_key(cpu_row))


def _best_cpu_seconds(facet: Facet, pattern_rows: list[Row]) -> dict[float, float]:
    best: dict[float, float] = {}
    for row in pattern_rows:
        size = row.name.size
        if (
            not row.name.variant.startswith(CPU_VARIANT_PREFIX)
            or size is None
            or row.failed
            or not row.seconds
            or row.name.axis("start") == "cold"
            or not _compatible(row, facet)
        ):
            continue
        best[size] = min(best.get(size, row.median_seconds), row.median_seconds)
    return best


def speedups_over_best_cpu(
    facet: Facet, pattern_rows: list[Row]
) -> dict[str, list[tuple[float, float]]]:
    """Per warm non-CPU series: (size, best warm CPU time / its time) wherever a CPU row of the
    same size ran. Empty when the pattern has no CPU reference for this facet."""
    best_cpu = _best_cpu_seconds(facet, pattern_rows)
    speedups: dict[str, list[tuple[float, float]]] = {}
    for series in facet.series:
        if series.is_cpu:
            continue
        points = [
            (size, best_cpu[size] / row.median_seconds)
            for size, row in series.points()
            if size in best_cpu and row.median_seconds > 0 and row.name.axis("start") != "cold"
        ]
        if points:
            speedups[series.label] = points
    return speedups


@dataclass(frozen=True)
class ColdWarmPair:
    label: str
    cold: Row
    warm: Row

    @property
    def ratio(self) -> float:
        return self.cold.median_seconds / self.warm.median_seconds


def cold_warm_pairs(rows: list[Row]) -> list[ColdWarmPair]:
    """Rows that differ only in `start:cold` against `start:warm`."""
    warm_by_identity: dict[tuple[str, tuple[tuple[str, str], ...]], Row] = {}
    for row in rows:
        if row.name.axis("start") == "warm":
            identity = (row.name.variant, row.name.axes_without("start", *IGNORED_AXES))
            warm_by_identity[identity] = row
    pairs = []
    for row in rows:
        if row.name.axis("start") != "cold" or not row.seconds or row.failed:
            continue
        warm = warm_by_identity.get(
            (row.name.variant, row.name.axes_without("start", *IGNORED_AXES))
        )
        if warm is not None and warm.seconds and not warm.failed:
            label = row.name.key.replace(f"{row.name.pattern}/", "", 1).replace("/start:cold", "")
            pairs.append(ColdWarmPair(label, row, warm))
    return pairs

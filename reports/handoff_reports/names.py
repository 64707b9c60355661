"""Benchmark names: `<pattern>/<variant>/<axis>:<value>.../manual_time`."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Google Benchmark's own suffixes, which say how a row was timed rather than what it measured.
TIMING_SUFFIXES = ("manual_time", "real_time", "process_time")
# The axis a pattern's plots put on x, in order of preference.
SIZE_AXES = ("elements", "unknowns", "bytes", "n", "datasets")


@dataclass(frozen=True)
class BenchmarkName:
    key: str  # the name without Google Benchmark's timing suffix: what runs are matched by
    pattern: str
    variant: str
    axes: tuple[tuple[str, str], ...]

    @property
    def family(self) -> str:
        return f"{self.pattern}/{self.variant}"

    def axis(self, name: str) -> str | None:
        return dict(self.axes).get(name)

    @property
    def size_axis(self) -> str | None:
        present = dict(self.axes)
        return next((axis for axis in SIZE_AXES if axis in present), None)

    @property
    def size(self) -> float | None:
        axis = self.size_axis
        value = self.axis(axis) if axis else None
        try:
            return float(value) if value is not None else None
        except ValueError:
            return None

    def axes_without(self, *names: str) -> tuple[tuple[str, str], ...]:
        return tuple((axis, value) for axis, value in self.axes if axis not in names)


def parse_name(run_name: str) -> BenchmarkName:
    parts = run_name.split("/")
    while parts and parts[-1] in TIMING_SUFFIXES:
        parts.pop()
    key = "/".join(parts)
    pattern = parts[0] if parts else run_name
    variant = parts[1] if len(parts) > 1 and ":" not in parts[1] else ""
    axes = []
    for part in parts[1 if not variant else 2 :]:
        axis, separator, value = part.partition(":")
        axes.append((axis, value) if separator else (part, ""))
    return BenchmarkName(key=key, pattern=pattern, variant=variant, axes=tuple(axes))


def selected_by(named: re.Pattern[str], key: str) -> bool:
    """Whether a benchmark filter selects the row with this key, as --benchmark_filter would:
    a regular expression searched in the name, or, after a leading '-', one whose rows are left
    out."""
    # A filter is written for benchmark names, which go on past the key ("/manual_time").
    name = key + "/"
    if named.pattern.startswith("-"):
        return re.search(named.pattern[1:], name) is None
    return named.search(name) is not None

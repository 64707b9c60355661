"""Each side's process medians of one compared row as a strip of dots, inline SVG small enough
for a table cell. A resolution shows how far a row can be trusted; the strip shows why: a cloud
that is merely wide, or most processes together and one or two far off (a slow state some
processes land in, which more processes narrow only slowly). Drawn by hand rather than by
matplotlib, which takes tens of milliseconds a figure, too slow for hundreds of rows a page."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from handoff_reports.compare import RowComparison, format_seconds
from handoff_reports.results import ProcessFigure

WIDTH, HEIGHT, MARGIN, RADIUS = 120, 22, 4, 2.5
# The narrowest span a strip shows, as a ratio: processes within 1% of each other should look
# together, not spread over the whole strip as rows that differ by 40% are.
SMALLEST_SPAN = 1.10
LANES = {"baseline": 6.5, "contender": 15.5}
COLOURS = {"baseline": "#7f7f7f", "contender": "#1f77b4"}


def process_figures(row: RowComparison) -> tuple[list[ProcessFigure], list[ProcessFigure]] | None:
    """(baseline, contender) processes with a figure; None without a process-level judgement or
    where a side has fewer than two processes (a single dot shows no spread)."""
    judgement = row.judgement
    if judgement is None:
        return None
    sides = (
        [p for p in judgement.baseline.processes if p.seconds > 0],
        [p for p in judgement.contender.processes if p.seconds > 0],
    )
    return sides if min(len(side) for side in sides) >= 2 else None


def _described(process: ProcessFigure) -> str:
    """A process's figure, and how often its threads and workers slept a run where that was
    recorded (waits that outlasted their spin, blocking GPU synchronisations): a slow process that
    slept far more than the quick ones lost its time to wake-ups."""
    figure = format_seconds(process.seconds)
    if process.sleeps_per_run is None:
        return figure
    return f"{figure} ({process.sleeps_per_run:.3g} sleeps a run)"


def _positions(values: Sequence[float], low: float, high: float) -> list[float]:
    """x of each value on a log axis from low to high across the strip's inner width."""
    span = math.log(high / low) if high > low else 1.0
    inner = WIDTH - 2 * MARGIN
    return [MARGIN + inner * (math.log(v / low) / span if high > low else 0.5) for v in values]


def _span(quickest: float, slowest: float) -> tuple[float, float]:
    """The strip's ends: the quickest and slowest process, widened evenly on the log axis to at
    least SMALLEST_SPAN."""
    widen = math.sqrt(max(SMALLEST_SPAN / (slowest / quickest), 1.0))
    return quickest / widen, slowest * widen


def set_aside_figures(row: RowComparison) -> tuple[list[ProcessFigure], list[ProcessFigure]]:
    """(baseline, contender) processes measured but set aside (a hypervisor took the CPU)."""
    judgement = row.judgement
    if judgement is None:
        return [], []
    return (
        [p for p in judgement.baseline.set_aside if p.seconds > 0],
        [p for p in judgement.contender.set_aside if p.seconds > 0],
    )


def _set_aside_described(process: ProcessFigure) -> str:
    stolen = f"{process.host_steal:.1%}" if process.host_steal is not None else "?"
    return f"{format_seconds(process.seconds)} (set aside: {stolen} of the CPU stolen)"


def process_strip(row: RowComparison) -> str | None:
    """The strip as an <svg> element whose title lists every process's figure; None where there
    is nothing to draw (see process_figures). Processes set aside are hollow."""
    sides = process_figures(row)
    if sides is None:
        return None
    aside = set_aside_figures(row)
    every = [p.seconds for side in (*sides, *aside) for p in side]
    low, high = _span(min(every), max(every))
    dots, titles = [], []
    for name, processes, left_out in zip(LANES, sides, aside, strict=True):
        in_order = sorted(processes, key=lambda p: p.seconds)
        for x in _positions([p.seconds for p in in_order], low, high):
            dots.append(
                f'<circle cx="{x:.1f}" cy="{LANES[name]}" r="{RADIUS}" '
                f'fill="{COLOURS[name]}" fill-opacity="0.6"/>'
            )
        for x in _positions([p.seconds for p in left_out], low, high):
            dots.append(
                f'<circle cx="{x:.1f}" cy="{LANES[name]}" r="{RADIUS}" '
                f'fill="none" stroke="{COLOURS[name]}"/>'
            )
        described = [_described(p) for p in in_order] + [_set_aside_described(p) for p in left_out]
        titles.append(f"{name}: " + ", ".join(described))
    span = f"the strip runs from {format_seconds(low)} to {format_seconds(high)}, log scale"
    title = escape(f"processes ({span}); " + "; ".join(titles))
    return (
        f'<svg class="strip" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img"><title>{title}</title>{"".join(dots)}</svg>'
    )

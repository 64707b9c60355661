"""Figures as people read them: times in s/ms/µs/ns, bandwidths in GB/s."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from handoff_reports.results import Ceiling


def seconds_text(seconds: float | None) -> str:
    if seconds is None or math.isnan(seconds):
        return "–"
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if abs(seconds) >= scale:
            return f"{seconds / scale:.4g} {unit}"
    return f"{seconds / 1e-9:.4g} ns"


def percent_text(fraction: float | None) -> str:
    return "–" if fraction is None or math.isnan(fraction) else f"{100 * fraction:.1f}%"


def ceiling_text(ceiling: Ceiling) -> str:
    if ceiling.is_latency:
        return seconds_text(ceiling.value)
    return f"{ceiling.value / 1e9:.4g} GB/s"


def markdown_table(columns: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A Markdown table of columns and rows of cells, each cell's '|' escaped."""

    def escaped(cell: str) -> str:
        return cell.replace("|", "\\|")

    out = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    out += ["| " + " | ".join(escaped(cell) for cell in row) + " |" for row in rows]
    return "\n".join(out) + "\n"

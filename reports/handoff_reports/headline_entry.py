"""One cell group of a headline table: a row's variant, median, interval, floor and efficiency,
and its text. The headline's table and the Python-cost table (python_cost.py) both show rows so."""

from __future__ import annotations

from dataclasses import dataclass

from handoff_reports.compare_stats import side_of
from handoff_reports.formatting import percent_text, seconds_text
from handoff_reports.results import Row


@dataclass(frozen=True)
class Entry:
    """One cell group of the table: a row's variant, median, interval, floor and efficiency."""

    row: Row
    # The axes that make a row of the same hand-off a CPU way ("compute:host"); empty otherwise.
    note: str = ""

    @property
    def variant(self) -> str:
        return self.row.name.variant + (f" ({self.note})" if self.note else "")

    @property
    def seconds(self) -> float:
        return self.row.median_seconds

    @property
    def interval(self) -> tuple[float, float] | None:
        """The row's interval as compare shows it (compare_stats.side_of); None in old files."""
        side = side_of(self.row.figures)
        return (side.low, side.high) if side.has_interval else None


# How handoff_bench opens the model of a floor that counts launches and no byte
# (bench/harness/floor_model.hpp).
LAUNCHES_ONLY = "launches only"


def entry_text(entry: Entry | None) -> str:
    """`variant 1.23 ms [1.20, 1.25 ms], 45.6% of floor`, or "–"."""
    if entry is None:
        return "–"
    text = f"{entry.variant} {seconds_text(entry.seconds)}"
    if (interval := entry.interval) is not None:
        text += f" [{seconds_text(interval[0])}, {seconds_text(interval[1])}]"
    floor = entry.row.floor_seconds
    if floor is not None:
        launches = ", launches only" if entry.row.floor_model.startswith(LAUNCHES_ONLY) else ""
        text += f", floor {seconds_text(floor)}{launches} ({percent_text(entry.row.efficiency)})"
        if entry.row.suspect:
            text += " SUSPECT"
    return text

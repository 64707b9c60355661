"""What Python costs: each Python recipe row beside the C++ recipe it stands for and the fastest
C++ variant at the same point (the same row name apart from the variant), each with its interval,
and the ratios Python/recipe and Python/fastest with theirs.

Only rows at the very same point are set side by side: a Python row at another size or target
says nothing about the C++ rows at theirs. A ratio's interval is taken from the ends of the two
rows' intervals (its least and its most), as the headline's speedup is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from handoff_reports import formatting
from handoff_reports.headline_entry import Entry, entry_text
from handoff_reports.python_recipes import python_recipes, python_variants, same_point
from handoff_reports.results import Row
from handoff_reports.variants import Variant


@dataclass(frozen=True)
class Ratio:
    value: float
    interval: tuple[float, float] | None


def ratio_of(top: Entry | None, bottom: Entry | None) -> Ratio | None:
    """top's time over bottom's, None where either is missing."""
    if top is None or bottom is None or not bottom.seconds > 0:
        return None
    above, below = top.interval, bottom.interval
    interval = None
    if above is not None and below is not None and below[0] > 0:
        interval = (above[0] / below[1], above[1] / below[0])
    return Ratio(top.seconds / bottom.seconds, interval)


def ratio_text(ratio: Ratio | None) -> str:
    if ratio is None:
        return "–"
    text = f"{ratio.value:.3g}×"
    if ratio.interval is not None:
        text += f" [{ratio.interval[0]:.3g}, {ratio.interval[1]:.3g}]"
    return text


@dataclass(frozen=True)
class PythonCostLine:
    pattern: str
    point: str  # the row name without pattern and variant
    python: Entry
    recipe: Entry | None  # the C++ recipe the Python one stands for, at the point
    fastest: Entry | None  # the quickest C++ variant at the point, the recipe included

    @property
    def over_recipe(self) -> Ratio | None:
        return ratio_of(self.python, self.recipe)

    @property
    def over_fastest(self) -> Ratio | None:
        return ratio_of(self.python, self.fastest)


def _usable(row: Row | None) -> bool:
    return row is not None and not row.failed and bool(row.seconds) and row.median_seconds > 0


def python_cost_lines(
    rows: Sequence[Row], record: Mapping[str, Sequence[Variant]]
) -> list[PythonCostLine]:
    """A line per Python recipe row that was measured. A row several files hold counts once, as
    the first file has it (headline.headline_table says why)."""
    by_key: dict[str, Row] = {}
    for row in rows:
        by_key.setdefault(row.key, row)
    in_python = python_variants(record)
    lines = []
    for recipe in python_recipes(record):
        cpp = [v.name for v in record[recipe.pattern] if v.name not in in_python[recipe.pattern]]
        own = [r for r in by_key.values() if r.name.family == f"{recipe.pattern}/{recipe.variant}"]
        for row in own:
            if not _usable(row):
                continue
            at_point = [by_key.get(same_point(row.key, variant)) for variant in cpp]
            measured = [other for other in at_point if other is not None and _usable(other)]
            seed = by_key.get(same_point(row.key, recipe.stands_for))
            fastest = min(measured, key=lambda other: other.median_seconds, default=None)
            lines.append(
                PythonCostLine(
                    pattern=recipe.pattern,
                    point="/".join(row.key.split("/")[2:]),
                    python=Entry(row),
                    recipe=Entry(seed) if seed is not None and _usable(seed) else None,
                    fastest=Entry(fastest) if fastest is not None else None,
                )
            )
    return lines


COLUMNS = ("pattern", "point", "Python recipe", "C++ recipe", "fastest C++",
           "Python / recipe", "Python / fastest")  # fmt: skip


def cells(line: PythonCostLine) -> tuple[str, ...]:
    return (line.pattern, line.point, entry_text(line.python), entry_text(line.recipe),
            entry_text(line.fastest), ratio_text(line.over_recipe),
            ratio_text(line.over_fastest))  # fmt: skip


def markdown_table(lines: Sequence[PythonCostLine]) -> str:
    return formatting.markdown_table(COLUMNS, (cells(line) for line in lines))


def text_table(lines: Sequence[PythonCostLine]) -> str:
    blocks = []
    for line in lines:
        named = dict(zip(COLUMNS, cells(line), strict=True))
        blocks.append(f"{line.pattern}\n" + "\n".join(
            f"  {name:<20} {named[name]}" for name in COLUMNS[1:]))  # fmt: skip
    return "\n\n".join(blocks) + "\n"

"""The headline table: per pattern, at its default size, what the recipe as written costs, what
the fastest variant costs, what the best CPU way costs, and how close each is to its floor.

Each pattern's default point, recipe and CPU ways are in HEADLINE_POINTS, read from
data/headline_points.json. The table's rules live here only (docs/design/headline.md): the report,
the results pages and ci/bench's last lines all print this table.

A row is at the point when every axis it has takes the point's value there (a CPU variant has no
`workers` or `start` axis, say); an axis of value LARGEST takes the largest value measured (the
GPU count). The fastest variant is the quickest row at the point that is not a CPU way, the recipe
included. `headline` prints the table as text or Markdown, or writes it into a page between its
markers, so that a published table comes from a real run.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from handoff_reports import formatting
from handoff_reports.claims import ClaimsError, evaluate_claims, load_claims, verdict_lines
from handoff_reports.headline_entry import Entry, entry_text
from handoff_reports.input_files import InputError, read_text
from handoff_reports.output_files import OutputError, check_output_file, write_atomically
from handoff_reports.python_cost import python_cost_lines
from handoff_reports.python_cost import text_table as python_table
from handoff_reports.results import ResultsError, Row, Run, load_all
from handoff_reports.together import runs_together
from handoff_reports.variants import run_variants

LARGEST = "{largest}"
POINTS_FILE = "handoff_reports/data/headline_points.json"
POINT_KEYS = {"pattern", "point", "recipe", "cpu_axes", "not_compared"}


@dataclass(frozen=True)
class HeadlinePoint:
    pattern: str
    point: Mapping[str, str]
    # The variant that is the articles' recipe, with its named fixes only; None where no row of
    # the recipe runs at this point.
    recipe: str | None
    # A CPU way is a variant named cpu_*, or a row at the point with these axes changed (the same
    # hand-off computing on the host), which it must have.
    cpu_axes: Mapping[str, str] = field(default_factory=dict)
    # Variants that are not a way to do the pattern's job, left out of "fastest": the multi-GPU
    # kernel alone, which gathers nothing, is what the gathers' scaling is measured against.
    not_compared: tuple[str, ...] = ()


def _text_map(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise ValueError(f"{where}: must map axis names to values, all strings")
    return dict(value)


def parse_headline_points(document: Any, where: str = POINTS_FILE) -> tuple[HeadlinePoint, ...]:
    """The points of headline_points.json; ValueError for a file of another layout."""
    points = document.get("points") if isinstance(document, dict) else None
    if not isinstance(points, list) or not points:
        raise ValueError(f"{where}: no points")
    if document.get("largest") != LARGEST:
        raise ValueError(f"{where}: largest must be {LARGEST!r}")
    parsed = []
    for index, entry in enumerate(points):
        at = f"{where}: points[{index}]"
        if not isinstance(entry, dict) or set(entry) - POINT_KEYS:
            raise ValueError(f"{at}: an object of pattern, point, recipe, cpu_axes, not_compared")
        pattern, recipe = entry.get("pattern"), entry.get("recipe")
        not_compared = entry.get("not_compared", [])
        if not isinstance(pattern, str) or not (recipe is None or isinstance(recipe, str)):
            raise ValueError(f"{at}: pattern is a string, recipe a string or null")
        if not isinstance(not_compared, list) or not all(isinstance(v, str) for v in not_compared):
            raise ValueError(f"{at}: not_compared is a list of variants")
        parsed.append(
            HeadlinePoint(
                pattern,
                _text_map(entry.get("point"), f"{at}.point"),
                recipe,
                cpu_axes=_text_map(entry.get("cpu_axes", {}), f"{at}.cpu_axes"),
                not_compared=tuple(not_compared),
            )
        )
    return tuple(parsed)


_points_text = resources.files("handoff_reports").joinpath("data", "headline_points.json")
HEADLINE_POINTS = parse_headline_points(json.loads(_points_text.read_text(encoding="utf-8")))


@dataclass(frozen=True)
class HeadlineLine:
    pattern: str
    point: str  # the point's axes as a name fragment, LARGEST resolved
    recipe: Entry | None
    fastest: Entry | None
    best_cpu: Entry | None
    # In place of the entries, why the line compares nothing on this run.
    note: str = ""

    @property
    def speedup(self) -> float | None:
        """The recipe's time over the fastest variant's."""
        if self.recipe is None or self.fastest is None or not self.fastest.seconds:
            return None
        return self.recipe.seconds / self.fastest.seconds

    @property
    def speedup_interval(self) -> tuple[float, float] | None:
        """The speedup from the ends of the two intervals: its least and its most."""
        if self.recipe is None or self.fastest is None:
            return None
        recipe, fastest = self.recipe.interval, self.fastest.interval
        if recipe is None or fastest is None or fastest[0] <= 0 or fastest[1] <= 0:
            return None
        return recipe[0] / fastest[1], recipe[1] / fastest[0]


def _usable(row: Row) -> bool:
    return not row.failed and bool(row.seconds) and row.median_seconds > 0


def _at(row: Row, point: Mapping[str, str]) -> bool:
    return all(point.get(axis, value) == value for axis, value in row.name.axes)


def _has(row: Row, axes: Mapping[str, str]) -> bool:
    return bool(axes) and all(row.name.axis(axis) == value for axis, value in axes.items())


def _resolved(point: Mapping[str, str], rows: Sequence[Row]) -> dict[str, str]:
    """The point with every LARGEST axis set to the largest value measured at the rest of it."""
    resolved = dict(point)
    for axis, value in point.items():
        if value != LARGEST:
            continue
        rest = {a: v for a, v in point.items() if a != axis and v != LARGEST}
        measured = [row.name.axis(axis) for row in rows if _at(row, rest)]
        numbers = [int(v) for v in measured if v is not None and v.isdigit()]
        if numbers:
            resolved[axis] = str(max(numbers))
        else:
            del resolved[axis]
    return resolved


def _quickest(rows: Sequence[Row], cpu_axes: Mapping[str, str] | None = None) -> Entry | None:
    usable = [row for row in rows if _usable(row)]
    if not usable:
        return None
    row = min(usable, key=lambda one: one.median_seconds)
    note = " ".join(f"{a}:{v}" for a, v in (cpu_axes or {}).items() if row.name.axis(a) == v)
    return Entry(row, note)


def headline_line(spec: HeadlinePoint, rows: Sequence[Row]) -> HeadlineLine | None:
    """The pattern's line, or None when no row of the pattern was measured at its point."""
    own = [row for row in rows if row.name.pattern == spec.pattern]
    point = _resolved(spec.point, own)
    at_point = [row for row in own if _at(row, point)]
    if not at_point:
        return None
    if spec.point.get("gpus") == LARGEST and point.get("gpus") == "1":
        # On one GPU the pattern's ways differ only in how they copy into one device: nothing
        # the articles ask about splitting over GPUs.
        return HeadlineLine(spec.pattern, "gpus:1", None, None, None, ONE_GPU_NOTE)
    cpu_point = {**point, **spec.cpu_axes}
    cpu_rows = [row for row in own
                if (row.name.variant.startswith("cpu_") and _at(row, point))
                or (_has(row, spec.cpu_axes) and _at(row, cpu_point))]  # fmt: skip
    cpu_keys = {row.key for row in cpu_rows}
    compared = [
        row
        for row in at_point
        if row.key not in cpu_keys and row.name.variant not in spec.not_compared
    ]
    recipe_rows = [row for row in compared if row.name.variant == spec.recipe]
    return HeadlineLine(
        pattern=spec.pattern,
        point="/".join(f"{axis}:{value}" for axis, value in point.items()),
        recipe=_quickest(recipe_rows),
        fastest=_quickest(compared),
        best_cpu=_quickest(cpu_rows, spec.cpu_axes),
    )


ONE_GPU_NOTE = "splitting over GPUs needs two or more; this run measured one"


def headline_table(rows: Sequence[Row]) -> list[HeadlineLine]:
    """The lines of the patterns measured at their points. A row that several results files hold
    counts once, as the first file has it: the quickest of several runs of one row would be a
    lucky draw, not a figure."""
    first: dict[str, Row] = {}
    for row in rows:
        first.setdefault(row.key, row)
    rows = list(first.values())
    lines = (headline_line(spec, rows) for spec in HEADLINE_POINTS)
    return [line for line in lines if line is not None]


def speedup_text(line: HeadlineLine) -> str:
    if (speedup := line.speedup) is None:
        return "–"
    text = f"{speedup:.3g}×"
    if (interval := line.speedup_interval) is not None:
        text += f" [{interval[0]:.3g}, {interval[1]:.3g}]"
    return text


COLUMNS = ("pattern", "point", "recipe", "fastest", "best CPU way", "fastest over recipe")


def _cells(line: HeadlineLine) -> tuple[str, ...]:
    if line.note:
        return (line.pattern, line.point, line.note, "–", "–", "–")
    return (line.pattern, line.point, entry_text(line.recipe), entry_text(line.fastest),
            entry_text(line.best_cpu), speedup_text(line))  # fmt: skip


def markdown_table(lines: Sequence[HeadlineLine]) -> str:
    return formatting.markdown_table(COLUMNS, (_cells(line) for line in lines))


def text_table(lines: Sequence[HeadlineLine]) -> str:
    blocks = []
    for line in lines:
        cells = dict(zip(COLUMNS, _cells(line), strict=True))
        blocks.append("\n".join(f"  {name:<20} {cells[name]}" for name in COLUMNS[1:]))
        blocks[-1] = f"{line.pattern}\n{blocks[-1]}"
    return "\n\n".join(blocks) + "\n"


BLOCK_BEGIN = "<!-- headline: begin (written by handoff-headline --into; do not edit) -->"
BLOCK_END = "<!-- headline: end -->"


def with_block(document: str, table: str) -> str:
    """document with the text between its headline markers replaced by table."""
    begin = document.find(BLOCK_BEGIN)
    end = document.find(BLOCK_END)
    if begin < 0 or end < begin:
        raise ValueError(f"no '{BLOCK_BEGIN}' ... '{BLOCK_END}' block")
    return document[: begin + len(BLOCK_BEGIN)] + "\n" + table + document[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="handoff-headline",
        description="Per pattern at its default size: the recipe as written, the fastest "
        "variant and the best CPU way, each with its median, interval, floor and efficiency, and "
        "the speedup of the fastest over the recipe.",
    )
    parser.add_argument("results", nargs="+", help="results JSON files written by handoff_bench")
    parser.add_argument("--format", choices=("text", "markdown"), default="text")
    parser.add_argument(
        "--into",
        metavar="FILE",
        help="write the Markdown table into FILE (a results page) between its headline markers",
    )
    arguments = parser.parse_args(argv)
    try:
        target = check_output_file(arguments.into) if arguments.into else None
        document = read_text(target) if target is not None else ""
        runs = load_all(arguments.results)
        together = runs_together(runs)
    except (InputError, OutputError, ResultsError) as error:
        print(f"handoff-headline: {error}", file=sys.stderr)
        return 2
    rows = [row for run in runs for row in run.benchmark_rows()]
    lines = headline_table(rows)
    if not lines:
        print("handoff-headline: no row of any pattern at its default point", file=sys.stderr)
        return 1
    if target is not None:
        try:
            write_atomically(target, with_block(document, markdown_table(lines)))
        except OutputError as error:
            print(f"handoff-headline: {error}", file=sys.stderr)
            return 2
        except ValueError as error:  # no markers in the file
            print(f"handoff-headline: {target}: {error}", file=sys.stderr)
            return 2
        print(f"handoff-headline: wrote the table into {target}")
        return 0
    if arguments.format == "text":
        # The articles' advice first, as the report opens with it.
        print("The articles' advice, measured here:")
        for line in _claim_lines(together):
            print(f"  {line}")
        print()
    print(markdown_table(lines) if arguments.format == "markdown" else text_table(lines), end="")
    if arguments.format == "text":
        _print_python_cost(rows, together)
    return 0


def _print_python_cost(rows: Sequence[Row], run: Run) -> None:
    if lines := python_cost_lines(rows, run_variants(run)):
        print("\nWhat Python costs (beside the C++ recipe and the fastest C++ at the same point):")
        print(python_table(lines), end="")


def _claim_lines(run: Run) -> list[str]:
    try:
        return verdict_lines(evaluate_claims(run, load_claims()))
    except ClaimsError as error:
        return [f"the claims file could not be read: {error}"]

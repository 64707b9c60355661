"""`processes`: why a row's processes disagree.

A run measures every row in several separate processes, and a row whose processes disagree stays
UNRESOLVED in a comparison. For each such row (its quickest and slowest process more than `--above`
apart, widest first), or for every row `--filter` names, this lists each process's figure beside
what its threads and its machine did while it measured the row:

- sleeps a run (`voluntary_switches_per_run`): its threads and workers' waits that outlasted their
  spin, and blocking GPU synchronisations;
- preemptions a run (`involuntary_switches_per_run`): its threads preempted, or handing their core
  to another thread;
- host busy and host steal: the share of the machine's CPU in use, and the share a hypervisor took.

Then the Spearman rank correlation of the figure with each, over the processes (SciPy), with its
p-value. A slow state that goes with sleeping is one of wake-ups; one that goes with a busy or
stolen machine is its neighbours'; one that goes with none of them lies where these counters do
not look (where a process's memory landed, which cores its threads ran on).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from handoff_reports.arguments import fraction
from handoff_reports.formatting import percent_text, seconds_text
from handoff_reports.results import ProcessFigure, ResultsError, Row, load_results

# Spearman's p-value comes from a t approximation that needs a few points to mean anything.
FEWEST_PROCESSES = 4


@dataclass(frozen=True)
class Cause:
    """A counter set beside each process's figure: how it is named and read, and printed."""

    name: str
    value: Callable[[ProcessFigure], float | None]
    text: Callable[[float | None], str]


def _count_text(value: float | None) -> str:
    return "–" if value is None else f"{value:.3g}"


CAUSES = (
    Cause("sleeps a run", lambda p: p.sleeps_per_run, _count_text),
    Cause("preemptions a run", lambda p: p.preemptions_per_run, _count_text),
    Cause("host busy", lambda p: p.host_busy, percent_text),
    Cause("host steal", lambda p: p.host_steal, percent_text),
)


def spread(processes: Sequence[ProcessFigure]) -> float:
    """How far the slowest process is above the quickest, as a fraction of the quickest."""
    quickest = min(p.seconds for p in processes)
    return max(p.seconds for p in processes) / quickest - 1 if quickest > 0 else math.inf


def rank_correlation(
    processes: Sequence[ProcessFigure], cause: Cause
) -> tuple[float, float, int] | None:
    """Spearman's rho of the figure with the cause, its p-value, and over how many processes; None
    where fewer than FEWEST_PROCESSES have the cause, or where either side never varies."""
    from scipy.stats import spearmanr  # imported here: the other commands do without scipy.stats

    pairs = [(p.seconds, value) for p in processes if (value := cause.value(p)) is not None]
    if len(pairs) < FEWEST_PROCESSES or len({v for _, v in pairs}) < 2:
        return None
    if len({s for s, _ in pairs}) < 2:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = spearmanr([s for s, _ in pairs], [v for _, v in pairs])
    rho, p_value = float(result.statistic), float(result.pvalue)
    return None if math.isnan(rho) else (rho, p_value, len(pairs))


def _correlation_text(processes: Sequence[ProcessFigure]) -> str:
    parts = []
    for cause in CAUSES:
        found = rank_correlation(processes, cause)
        if found is None:
            parts.append(f"{cause.name} –")
            continue
        rho, p_value, count = found
        over = "" if count == len(processes) else f", over the {count} that wrote it"
        parts.append(f"{cause.name} {rho:+.2f} (p {p_value:.2g}{over})")
    return "; ".join(parts)


def row_table(row: Row) -> list[str]:
    """The lines for one row: its heading, a line per process (quickest first), the correlations."""
    processes = sorted(row.processes, key=lambda p: p.seconds)
    lines = [
        f"{row.key}: {len(processes)} processes, {seconds_text(processes[0].seconds)} to "
        f"{seconds_text(processes[-1].seconds)} (+{100 * spread(processes):.1f}%)"
    ]
    columns = ["figure", "noise", *(cause.name for cause in CAUSES)]
    cells = [
        [seconds_text(p.seconds), "–" if p.noise is None else f"±{100 * p.noise:.1f}%"]
        + [cause.text(cause.value(p)) for cause in CAUSES]
        for p in processes
    ]
    widths = [
        max(len(column), *(len(line[i]) for line in cells)) for i, column in enumerate(columns)
    ]
    for line in [columns, *cells]:
        lines.append(
            "  " + "  ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True))
        )
    lines.append(
        f"  rank correlation with the figure (Spearman, {len(processes)} processes): "
        + _correlation_text(processes)
    )
    return lines


def chosen_rows(rows: Sequence[Row], above: float, named: re.Pattern[str] | None) -> list[Row]:
    """The rows measured by FEWEST_PROCESSES or more: those `named` selects, else those whose
    processes spread by more than `above`; widest first."""
    measured = [row for row in rows if len(row.processes) >= FEWEST_PROCESSES]
    if named is not None:
        # A filter is written for benchmark names, which go on past the key ("/manual_time").
        chosen = [row for row in measured if named.search(row.key + "/")]
    else:
        chosen = [row for row in measured if spread(row.processes) > above]
    return sorted(chosen, key=lambda row: spread(row.processes), reverse=True)


def _regex(text: str) -> re.Pattern[str]:
    try:
        return re.compile(text)
    except re.error as error:
        raise argparse.ArgumentTypeError(f"not a regular expression: {error}") from error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="handoff-processes",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("results", type=Path, help="a results JSON of several processes")
    parser.add_argument(
        "--above",
        type=fraction,
        default=0.05,
        help="list the rows whose slowest process is more than this above the quickest "
        "(default 0.05)",
    )
    parser.add_argument(
        "--filter",
        type=_regex,
        metavar="REGEX",
        help="list the rows this selects (searched in the benchmark's name), however they spread",
    )
    arguments = parser.parse_args(argv)
    try:
        run = load_results(arguments.results)
    except ResultsError as error:
        print(f"handoff-processes: {error}", file=sys.stderr)
        return 2
    rows = chosen_rows(list(run.rows.values()), arguments.above, arguments.filter)
    if not rows:
        most = max((len(row.processes) for row in run.rows.values()), default=0)
        why = (
            f"no row was measured by {FEWEST_PROCESSES} or more processes (at most {most})"
            if most < FEWEST_PROCESSES
            else "no row matches the filter"
            if arguments.filter is not None
            else f"no row's processes spread by more than {arguments.above:.0%}"
        )
        print(f"handoff-processes: {why}")
        return 0
    for index, row in enumerate(rows):
        if index:
            print()
        print("\n".join(row_table(row)))
    return 0

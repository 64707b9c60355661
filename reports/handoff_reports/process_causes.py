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

Then the Spearman rank correlation of the figure with each, over the processes, with its
two-sided p-value from a permutation test (SciPy): exact over every pairing up to nine processes,
from 99,999 seeded random pairings beyond, since the usual t approximation is
far too kind at a handful of points. A slow state that goes with sleeping is one of wake-ups; one
that goes with a busy or stolen machine is its neighbours'; one that goes with none of them lies
where these counters do not look (where a process's memory landed, which cores its threads ran on).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from handoff_reports.arguments import positive_number, regular_expression
from handoff_reports.formatting import percent_text, seconds_text
from handoff_reports.names import selected_by
from handoff_reports.process_level import set_aside_stolen
from handoff_reports.results import ProcessFigure, ResultsError, Row, load_results

# Below four processes no pairing is rarer than one in six, so no correlation could mean anything.
FEWEST_PROCESSES = 4
EXACT_UP_TO = 9  # 9! pairings, each a row of nine ranks: about 26 MB at once
PAIRINGS_DRAWN = 99_999


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
    """Spearman's rho of the figure with the cause, its permutation p-value, and over how many
    processes; None where fewer than FEWEST_PROCESSES have the cause, or either never varies."""
    # Imported here: the other commands do without scipy.stats, which is slow to import.
    from scipy.stats import permutation_test, rankdata

    pairs = [(p.seconds, value) for p in processes if (value := cause.value(p)) is not None]
    if len(pairs) < FEWEST_PROCESSES:
        return None
    figure_ranks = rankdata([s for s, _ in pairs])
    cause_ranks = rankdata([v for _, v in pairs])
    centred_cause = cause_ranks - cause_ranks.mean()
    spread_product = float(
        np.sqrt(np.sum((figure_ranks - figure_ranks.mean()) ** 2) * np.sum(centred_cause**2))
    )
    if spread_product == 0:
        return None

    # Spearman's rho is Pearson's r of the ranks; permuting one side's ranks keeps both spreads.
    def rho_of(ranks: NDArray[np.float64], axis: int = -1) -> NDArray[np.float64]:
        centred = ranks - ranks.mean(axis=axis, keepdims=True)
        return np.asarray(np.sum(centred * centred_cause, axis=axis) / spread_product)

    exact = len(pairs) <= EXACT_UP_TO
    result = permutation_test(
        (figure_ranks,),
        rho_of,
        permutation_type="pairings",
        vectorized=True,
        n_resamples=math.inf if exact else PAIRINGS_DRAWN,
        rng=np.random.default_rng(len(pairs)),
    )
    return float(result.statistic), float(result.pvalue), len(pairs)


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
    set_aside = {id(p) for p in set_aside_stolen(processes)[1]}
    failed = f"; FAILED: {row.failure}" if row.failed else ""
    aside = f"; {len(set_aside)} set aside by compare (*)" if set_aside else ""
    lines = [
        f"{row.key}: {len(processes)} processes, {seconds_text(processes[0].seconds)} to "
        f"{seconds_text(processes[-1].seconds)} (+{100 * spread(processes):.1f}%){failed}{aside}"
    ]
    columns = ["figure", "noise", *(cause.name for cause in CAUSES)]
    cells = [
        [
            ("* " if id(p) in set_aside else "") + seconds_text(p.seconds),
            "–" if p.noise is None else f"±{100 * p.noise:.1f}%",
        ]
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


def named_rows(rows: Sequence[Row], named: re.Pattern[str] | None) -> list[Row]:
    """The rows `named` selects (all where None)."""
    return [row for row in rows if named is None or selected_by(named, row.key)]


def chosen_rows(rows: Sequence[Row], above: float, named: re.Pattern[str] | None) -> list[Row]:
    """The rows measured by FEWEST_PROCESSES or more: those `named` selects, else those whose
    processes spread by more than `above`; widest first."""
    measured = [row for row in named_rows(rows, named) if len(row.processes) >= FEWEST_PROCESSES]
    if named is None:
        measured = [row for row in measured if spread(row.processes) > above]
    return sorted(measured, key=lambda row: spread(row.processes), reverse=True)


def nothing_listed(rows: Sequence[Row], above: float, named: re.Pattern[str] | None) -> str:
    """Why no row was listed."""
    if named is not None and not named_rows(rows, named):
        return "no row matches the filter"
    most = max((len(row.processes) for row in named_rows(rows, named)), default=0)
    if most < FEWEST_PROCESSES:
        which = "no row the filter names" if named is not None else "no row"
        return f"{which} was measured by {FEWEST_PROCESSES} or more processes (at most {most})"
    return f"no row's processes spread by more than {100 * above:g}%"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="handoff-processes",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("results", type=Path, help="a results JSON of several processes")
    parser.add_argument(
        "--above",
        type=positive_number,
        default=0.05,
        help="list the rows whose slowest process is more than this above the quickest "
        "(default 0.05)",
    )
    parser.add_argument(
        "--filter",
        type=regular_expression,
        metavar="REGEX",
        help="list the rows this selects (searched in the benchmark's name), however they spread",
    )
    arguments = parser.parse_args(argv)
    try:
        run = load_results(arguments.results)
    except ResultsError as error:
        print(f"handoff-processes: {error}", file=sys.stderr)
        return 2
    every_row = list(run.rows.values())
    rows = chosen_rows(every_row, arguments.above, arguments.filter)
    if not rows:
        print(f"handoff-processes: {nothing_listed(every_row, arguments.above, arguments.filter)}")
        return 0
    for index, row in enumerate(rows):
        if index:
            print()
        print("\n".join(row_table(row)))
    return 0

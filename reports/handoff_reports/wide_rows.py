"""The rows of a run that earn more processes, as one `--benchmark_filter`: what
ci/measure-processes gives its further processes.

A row's resolution narrows with the square root of its processes, and its t quantile with their
degrees of freedom. At the level a whole profile is judged at, three processes a side leave a t of
about 19 (more where one side's processes agree far better than the other's), so even a row whose
processes agree to 0.1% resolves no better than a few percent; and a row that moves by tens of
percent needs many more. More processes go, in this order:

1. to the rows that `--first` selects (ci/measure-processes passes the headline rows), however
   little they spread: the figures a reader acts on first;
2. to the rows a claim of the articles names (handoff_reports/data/claims.toml), however little
   they spread: the verdicts the report opens with. In both groups cheapest first, so that as
   many of them as the time allows get their processes, and a headline row is never crowded out
   by a claim's;
3. to every other row whose processes spread by more than `--above` (1%), widest first.

With `--seconds`, the rows are taken in that order while `--processes` further processes of them
fit in that many seconds: a row's cost is what one process of it took (its `row_seconds`), and
each process also pays what a process of the first round spent outside its rows (start-up, the
CUDA context). A row that does not fit is passed over for the cheaper ones after it. Prints
nothing when no row qualifies.

`--also FILTER` names rows already chosen (a filter this command printed): they are left out of
the choice and kept in the filter it prints. ci/measure-processes uses it to top up its further
processes once the first of them has shown what a process really costs: the price above is only
an estimate, and one that errs on the safe side leaves time unspent."""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Any

from handoff_reports.arguments import fraction, regular_expression, seconds, whole_number
from handoff_reports.claims_file import Claim, load_claims
from handoff_reports.process_level import own_spread
from handoff_reports.results import ResultsError, Row, by_process, load_results


class Tier(IntEnum):
    """Why a row earns more processes, in the order they are given."""

    HEADLINE = 0  # named by --first
    CLAIM = 1  # named by a claim of the articles
    SPREAD = 2  # its processes disagreed by more than --above


@dataclass(frozen=True)
class Candidate:
    """A row that earns more processes: the headline or a claim names it, or it spreads."""

    key: str
    spread: float  # the sd of its log process medians, floored by its noise
    tier: Tier
    seconds: float  # what one process of the row took; 0 where the file does not say

    @property
    def named(self) -> bool:
        return self.tier is not Tier.SPREAD

    def order(self) -> tuple[int, float, str]:
        """Named rows cheapest first within their tier; the others widest first."""
        return (self.tier, self.seconds if self.named else -self.spread, self.key)


def row_cost(row: Row) -> float:
    """What one process spent on the row (its first repetition's `row_seconds`); 0 in files
    written before rows were timed."""
    spent = row.counters.get("row_seconds", 0.0)
    return spent if math.isfinite(spent) and spent > 0 else 0.0


def candidates(
    rows: Iterable[Row],
    above: float,
    is_headline: Callable[[str], bool],
    is_claimed: Callable[[str], bool] = lambda key: False,
) -> list[Candidate]:
    """The rows that earn processes, in that order: every row `is_headline` names, then every row
    `is_claimed` names, each cheapest first, then the others whose between-process spread is
    above `above`, widest first. Rows of one process, or failed, are left out."""
    found = []
    for row in rows:
        if row.failed:
            continue
        spread = own_spread(by_process(row.repetition_figures))
        if spread is None:
            continue
        if is_headline(row.key):
            tier = Tier.HEADLINE
        elif is_claimed(row.key):
            tier = Tier.CLAIM
        elif spread.sd > above:
            tier = Tier.SPREAD
        else:
            continue
        found.append(Candidate(row.key, spread.sd, tier, row_cost(row)))
    return sorted(found, key=Candidate.order)


def within_budget(
    ordered: Sequence[Candidate], processes: int, budget: float | None, per_process: float
) -> list[str]:
    """Keys of the candidates, in order, whose `processes` further processes fit in `budget`
    seconds (None: no limit), each process also paying `per_process` seconds of its own."""
    if budget is None:
        return sorted(c.key for c in ordered)
    left = budget - processes * per_process
    chosen = []
    for candidate in ordered:
        cost = processes * candidate.seconds
        if cost <= left:
            chosen.append(candidate.key)
            left -= cost
    return sorted(chosen)


def outside_rows(rows: Iterable[Row], process_seconds: float) -> float:
    """What a process of the first round spent outside its rows: its wall time less the time its
    rows took, never below 0."""
    return max(0.0, process_seconds - sum(row_cost(row) for row in rows))


def claimed_by(claims: Sequence[Claim]) -> Callable[[str], bool]:
    patterns = [pattern for claim in claims for pattern in claim.patterns]
    return lambda key: any(pattern.match(key) is not None for pattern in patterns)


def benchmark_filter(keys: list[str]) -> str:
    """One regular expression that selects exactly these rows' benchmarks (a row's name may end
    in the timer's suffix, such as /manual_time); empty for no row."""
    if not keys:
        return ""
    return "^(" + "|".join(re.escape(key) for key in keys) + ")(/[a-z_]+_time)?$"


# The command's options beside the results file: the flag, then argparse's settings for it.
_OPTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("--above", {"type": fraction, "default": 0.01,
                 "help": "the least spread given more processes (default 0.01)"}),
    ("--first", {"type": regular_expression, "metavar": "REGEX",
                 "help": "rows (searched in the row's name) that come first, as the claims' do"}),
    ("--processes", {"type": whole_number(1), "default": 1,
                     "help": "how many further processes the rows will have (default 1)"}),
    ("--seconds", {"type": seconds,
                   "help": "the time those processes may take in all (default: no limit)"}),
    ("--also", {"type": regular_expression, "metavar": "FILTER",
                "help": "rows already chosen: left out of the choice, kept in the filter"}),
    ("--process-seconds", {"type": seconds, "default": 0.0,
                           "help": "the wall time of one process of the first round, whose part "
                                   "outside its rows each further process pays too"}),
)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="handoff-wide-rows", description=__doc__)
    parser.add_argument("results", type=Path, help="a merged results JSON of several processes")
    for flag, settings in _OPTIONS:
        parser.add_argument(flag, **settings)
    arguments = parser.parse_args(argv)
    try:
        run = load_results(arguments.results)
    except ResultsError as error:
        print(f"handoff-wide-rows: {error}", file=sys.stderr)
        return 2
    claimed = claimed_by(load_claims())
    first: re.Pattern[str] | None = arguments.first

    def is_headline(key: str) -> bool:
        # A filter is written for benchmark names, which go on past the key ("/manual_time").
        return first is not None and first.search(key + "/") is not None

    rows = list(run.rows.values())
    also: re.Pattern[str] | None = arguments.also
    kept = [row.key for row in rows if also is not None and also.search(row.key)]
    ordered = [
        c for c in candidates(rows, arguments.above, is_headline, claimed) if c.key not in kept
    ]
    per_process = outside_rows(rows, arguments.process_seconds)
    chosen = within_budget(ordered, arguments.processes, arguments.seconds, per_process)
    if arguments.seconds is not None:
        print(
            f"handoff-wide-rows: {len(chosen)} of {len(ordered)} rows (the first ones, the "
            f"claims', and those that spread by more than {arguments.above:.0%}) fit "
            f"{arguments.processes} more processes in {arguments.seconds:.0f} s",
            file=sys.stderr,
        )
    print(benchmark_filter(sorted(kept + chosen)))
    return 0

"""The rows of a run whose processes disagree by more than a spread and less than another, as one
`--benchmark_filter`: what ci/measure-processes gives further processes.

A row's resolution narrows with the square root of its processes. A row whose processes already
agree needs no more; a row that spreads by tens of percent would need hundreds; the rows between
are the ones where a few more processes decide whether a change of a few percent can be called.
Prints nothing when no row qualifies."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from handoff_reports.arguments import fraction
from handoff_reports.process_level import own_spread
from handoff_reports.results import ResultsError, Row, by_process, load_results


def spread_between(rows: Iterable[Row], above: float, below: float) -> list[str]:
    """Keys of the rows whose between-process spread (sd of log process medians, floored by
    their noise) is above `above` and below `below`; rows of one process, or failed, are left
    out."""
    chosen = []
    for row in rows:
        if row.failed:
            continue
        spread = own_spread(by_process(row.repetition_figures))
        if spread is not None and above < spread.sd < below:
            chosen.append(row.key)
    return sorted(chosen)


def benchmark_filter(keys: list[str]) -> str:
    """One regular expression that selects exactly these rows' benchmarks (a row's name may end
    in the timer's suffix, such as /manual_time); empty for no row."""
    if not keys:
        return ""
    return "^(" + "|".join(re.escape(key) for key in keys) + ")(/[a-z_]+_time)?$"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="handoff-wide-rows", description=__doc__)
    parser.add_argument("results", type=Path, help="a merged results JSON of several processes")
    parser.add_argument("--above", type=fraction, default=0.01,
                        help="the least spread given more processes (default 0.01)")  # fmt: skip
    parser.add_argument("--below", type=fraction, default=0.12,
                        help="the spread more processes cannot help (default 0.12)")  # fmt: skip
    arguments = parser.parse_args(argv)
    if arguments.above >= arguments.below:
        parser.error("--above must be less than --below")
    try:
        run = load_results(arguments.results)
    except ResultsError as error:
        print(f"handoff-wide-rows: {error}", file=sys.stderr)
        return 2
    print(benchmark_filter(spread_between(run.rows.values(), arguments.above, arguments.below)))
    return 0

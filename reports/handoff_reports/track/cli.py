"""`track`: the nightly history. `ingest` adds runs, `check` finds regressions, `html` plots."""

from __future__ import annotations

import argparse
import math
import re
import sys
from pathlib import Path

from handoff_reports.arguments import fraction, whole_number
from handoff_reports.output_files import check_output_file, write_atomically
from handoff_reports.results import load_results
from handoff_reports.track.check import CheckOptions, check, format_report
from handoff_reports.track.errors import TrackError
from handoff_reports.track.series import read_history
from handoff_reports.track.store import DEFAULT_PATH, open_store
from handoff_reports.variants import run_variants

EXIT_OK, EXIT_REGRESSION, EXIT_USAGE = 0, 1, 2


def _ingest(arguments: argparse.Namespace) -> int:
    # Every file is read before any is stored, so one bad file leaves the history as it was.
    runs = [load_results(path) for path in arguments.results]
    for run in runs:
        run_variants(run)  # a damaged variants record refuses the batch here, as a damaged file
    for run in runs:
        if not run.run_state.incomplete:
            continue
        # Its rows are real measurements, but a missing row is no regression or improvement:
        # said aloud, or refused for a history that must hold finished runs only.
        why = f"{run.path}: an incomplete run ({run.run_state.reason or 'no reason given'})"
        if arguments.strict:
            raise TrackError(f"{why}; refused under --strict")
        print(f"track: warning: {why}; its {len(run.rows)} rows are stored", file=sys.stderr)
    with open_store(arguments.db, create=True) as store:
        for run in runs:
            ingested = store.ingest(run)
            if ingested.added:
                damaged = sum(bool(row.defects) for row in run.rows.values())
                print(
                    f"{run.path}: added as run {ingested.run_id}, {ingested.rows} rows, "
                    f"{ingested.repetitions} repetitions"
                    + (
                        f"; {damaged} rows with damaged figures, stored as failed"
                        if damaged
                        else ""
                    )
                )
            else:
                print(
                    f"{run.path}: already in the history as run {ingested.run_id} "
                    "(same machine, date and commit); skipped"
                )
    return EXIT_OK


def _options(arguments: argparse.Namespace) -> CheckOptions:
    return CheckOptions(
        threshold=arguments.threshold, max_pvalue=arguments.max_pvalue, recent=arguments.recent
    )


def _check(arguments: argparse.Namespace) -> int:
    with open_store(arguments.db, create=False) as store:
        history = read_history(store, arguments.match)
    result = check(history, _options(arguments))
    print(format_report(result))
    return EXIT_REGRESSION if result.failed else EXIT_OK


def _html(arguments: argparse.Namespace) -> int:
    from handoff_reports.track.dashboard import render_dashboard  # matplotlib only when plotting

    check_output_file(arguments.out)  # before the plots: a slip in the path costs nothing
    with open_store(arguments.db, create=False) as store:
        history = read_history(store, arguments.match)
        variants = store.recorded_variants()
    result = check(history, _options(arguments))
    write_atomically(arguments.out, render_dashboard(result, str(arguments.db), variants))
    damaged = f", {len(history.damaged)} damaged figures left out" if history.damaged else ""
    print(
        f"{arguments.out}: {len(history.series)} series, {len(result.changes)} change points"
        + damaged
    )
    return EXIT_OK


def _regex(text: str) -> re.Pattern[str]:
    try:
        return re.compile(text)
    except re.error as error:
        raise argparse.ArgumentTypeError(f"bad regular expression {text!r}: {error}") from error


def _change(text: str) -> float:
    try:
        value = float(text.removesuffix("%")) / (100 if text.endswith("%") else 1)
    except ValueError:
        value = math.nan
    if not 0 <= value < 10:
        raise argparse.ArgumentTypeError(f"{text!r} is not a fraction such as 0.05 or 5%")
    return value


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        type=Path,
        default=DEFAULT_PATH,
        help=f"history database (default: ./{DEFAULT_PATH})",
    )


def _add_analysis(parser: argparse.ArgumentParser) -> None:
    defaults = CheckOptions()
    parser.add_argument(
        "--match",
        type=_regex,
        default=None,
        metavar="REGEX",
        help="only benchmarks whose name matches REGEX (re.search)",
    )
    parser.add_argument(
        "--threshold",
        type=_change,
        default=defaults.threshold,
        help="smallest change in median time that counts, as 0.05 or 5%% "
        f"(default {defaults.threshold * 100:.0f}%%)",
    )
    parser.add_argument(
        "--max-pvalue",
        type=fraction,
        default=defaults.max_pvalue,
        help=f"significance level of a change point (default {defaults.max_pvalue})",
    )
    parser.add_argument(
        "--recent",
        type=whole_number(0),
        default=defaults.recent,
        metavar="N",
        help="report only change points among the last N nights of each series; "
        f"0 for the whole history (default {defaults.recent})",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="handoff-track",
        description="Nightly history of handoff_bench results in SQLite, with change-point "
        "detection (apache-otava E-divisive). A changed driver, CUDA runtime or measurement "
        "setting is a known break, "
        "not a regression; a changed GPU is a new machine.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    ingest = commands.add_parser(
        "ingest",
        help="add results files to the history",
        description="Add runs. A run already there (same machine, date "
        "and commit) is skipped, so ingesting twice is harmless. An incomplete run (stopped, or "
        "out of time) is stored with a warning on stderr, or refused with --strict.",
    )
    ingest.add_argument("results", nargs="+", type=Path, help="handoff_bench JSON files")
    ingest.add_argument(
        "--strict",
        action="store_true",
        help="refuse an incomplete run (one that was stopped, or ran out of time) instead of "
        "storing its rows with a warning",
    )
    _add_common(ingest)
    checker = commands.add_parser(
        "check",
        help="print regressions; exit 1 when there are any",
        description="Find change points per benchmark and machine. "
        "Exit 0: none slower; 1: regressions; 2: bad input.",
    )
    _add_common(checker)
    _add_analysis(checker)
    html = commands.add_parser(
        "html",
        help="write the trend dashboard",
        description="Write a self-contained HTML page with a trend plot "
        "per benchmark, change points and known breaks marked.",
    )
    html.add_argument("out", type=Path, help="the HTML file to write")
    _add_common(html)
    _add_analysis(html)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        arguments = build_parser().parse_args(argv)
    except SystemExit as stop:  # --help, or a usage error argparse already printed
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE
    handlers = {"ingest": _ingest, "check": _check, "html": _html}
    try:
        return handlers[arguments.command](arguments)
    except ValueError as error:  # ResultsError, TrackError, OutputError: named in the message
        print(f"track: {error}", file=sys.stderr)
        return EXIT_USAGE

"""`handoff-compare` on the command line: the arguments, the formats chosen, the exit status.

The comparison itself (the model and the rule) is compare.py's; the formats are compare_text.py,
compare_formats.py and compare_html.py, which read a Comparison. This module is the only one that
knows all of them, so none of them imports another back.
"""

from __future__ import annotations

import argparse
import sys

from handoff_reports.arguments import fraction, regular_expression
from handoff_reports.compare import compare_runs
from handoff_reports.compare_stats import (
    DEFAULT_THRESHOLD,
    Thresholds,
    ThresholdsError,
    load_thresholds,
)
from handoff_reports.machine_noise import load_machine_noise
from handoff_reports.output_files import OutputError, check_output_file
from handoff_reports.results import ResultsError, load_results
from handoff_reports.row_selection import FilterError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="handoff-compare",
        description="Compare a contender run of handoff_bench with a baseline run, row by row: "
        "SAME, FASTER, SLOWER, UNRESOLVED, NOT COMPARABLE or FAILED, with a geometric mean of the "
        "time ratios. Verdicts come from the process level: each row's resolution (the smallest "
        "change it could call, from both sides' spread between processes) is printed beside its "
        "change. The rows of each section are judged together (Benjamini-Hochberg at 1%), so "
        "each is tested at its section's level, printed in the header. SLOWER or FASTER needs a "
        "change beyond the threshold and the resolution; SAME, no change larger than a "
        "resolution within the threshold; UNRESOLVED, a side of one process without "
        "--machine-noise, or a resolution wider than the threshold.",
        epilog="Exit status: 0 no regression (UNRESOLVED and SAME never fail); 1 a benchmark "
        "SLOWER beyond its threshold and its resolution, a row FAILED (a wrong or errored "
        "contender, or damaged figures on either side), a baseline row missing from the "
        "contender, or a run without rows (ceilings never fail it: they measure the machine); "
        "2 usage or input error, or a --machine-noise file from another machine.",
    )
    parser.add_argument("baseline", help="results JSON of the baseline run")
    parser.add_argument("contender", help="results JSON of the run to judge")
    parser.add_argument(
        "--thresholds", metavar="FILE", help="TOML with a default and per-benchmark thresholds"
    )
    parser.add_argument(
        "--threshold",
        type=fraction,
        help=f"default relative threshold, overriding the file's (default {DEFAULT_THRESHOLD})",
    )
    parser.add_argument(
        "--alpha",
        type=fraction,
        help="deprecated and ignored: the U test is gone, verdicts come from the process level",
    )
    parser.add_argument(
        "--ignore-settings",
        action="store_true",
        help="compare runs measured with different settings instead of calling every row "
        "NOT COMPARABLE",
    )
    parser.add_argument(
        "--across-machines",
        action="store_true",
        help="compare runs measured on different machines (GPU or CPU model, driver, CUDA "
        "runtime) instead of calling every row NOT COMPARABLE",
    )
    parser.add_argument(
        "--machine-noise",
        metavar="FILE",
        action="append",
        help="a results JSON of several processes from this machine (a merged ci/bench run, "
        "earlier than both sides): each row's spread between its processes stands in for a side "
        "measured by a single process and is pooled with a side of several; given twice or more "
        "(each FILE one run), the spread between whole runs is added to every row's resolution",
    )
    parser.add_argument(
        "--paired",
        action="store_true",
        help="the runs alternated: judge each row by the ratios of its repetitions taken in turn "
        "(repetition i of each run), which cancels the machine's drift between them",
    )
    parser.add_argument(
        "--filter",
        type=regular_expression,
        metavar="REGEX",
        help="compare only the rows this selects (searched in each benchmark's name, as "
        "--benchmark_filter searches), judged together among themselves: the headline rows "
        "of a whole run, say, without the rest of the profile",
    )
    parser.add_argument(
        "--format",
        choices=("text", "markdown", "json"),
        default="text",
        help="what to print: the console report (default), a Markdown summary and tables for a "
        "pull-request comment, or JSON with every row's figures and verdict",
    )
    parser.add_argument("--html", metavar="OUT", help="also write the comparison as HTML here")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_request:  # --help (0) or a usage error (2), already printed
        return exit_request.code if isinstance(exit_request.code, int) else 2
    try:
        if args.html:
            check_output_file(args.html)  # before the work: a slip in the path costs nothing
        thresholds = load_thresholds(args.thresholds) if args.thresholds else Thresholds()
        if args.threshold is not None:
            thresholds = thresholds.with_default(args.threshold)
        machine_noise = load_machine_noise(args.machine_noise) if args.machine_noise else None
        comparison = compare_runs(
            load_results(args.baseline),
            load_results(args.contender),
            thresholds,
            ignore_settings=args.ignore_settings,
            paired=args.paired,
            across_machines=args.across_machines,
            machine_noise=machine_noise,
            row_filter=args.filter,
        )
    except (FilterError, OutputError, ResultsError, ThresholdsError) as error:
        print(f"handoff-compare: {error}", file=sys.stderr)
        return 2
    if args.alpha is not None:
        print("handoff-compare: --alpha is deprecated and ignored", file=sys.stderr)
    if args.format == "text":
        from handoff_reports.compare_text import format_report

        print(format_report(comparison))
    else:
        from handoff_reports.compare_formats import format_json, format_markdown

        print(format_json(comparison) if args.format == "json" else format_markdown(comparison))
    if args.html:
        # Imported here so that a console-only comparison does not start matplotlib.
        from handoff_reports.compare_html import write_html

        try:
            write_html(comparison, args.html)
        except OutputError as error:
            print(f"handoff-compare: {error}", file=sys.stderr)
            return 2
    return comparison.exit_code

"""`compare-builds`: two handoff_bench binaries run in turn on this machine, then compared pair by
pair, as Google Benchmark's `compare.py benchmarks` or `asv continuous` compare two builds.

On a shared machine the speed wanders by tens of percent for seconds at a time, so two builds run
one after the other differ by the weather as much as by the code. Here the two binaries run in
alternation, PAIRS times each (baseline then contender in odd pairs, contender then baseline in
even ones, so that neither always runs second), after one discarded warm-up run of the baseline
that also measures the ceilings every later run reuses. Each side's runs are merged, one
repetition per run, and compared with `compare --paired`: run i of the baseline against run i of
the contender, taken within seconds of each other. The exit status is compare's.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from handoff_reports.arguments import fraction, whole_number
from handoff_reports.children import run_to_end
from handoff_reports.compare import compare_runs
from handoff_reports.compare_stats import Thresholds
from handoff_reports.compare_text import format_report
from handoff_reports.merge import MergeError, merge_documents
from handoff_reports.output_files import OutputError, check_output_folder, write_atomically
from handoff_reports.results import ResultsError, load_results, read_results_document

WARM_UP = "warm-up"


class RunFailed(RuntimeError):
    """A run of one of the binaries wrote no results."""


def run_bench(binary: str, arguments: Sequence[str], output: Path, log: Path) -> None:
    """One run of binary, its results in output. A run that verified wrong (exit 1) still has
    results, which compare reports as FAILED; a run without results is RunFailed."""
    command = [binary, *arguments, f"--benchmark_out={output}", "--benchmark_out_format=json"]
    output.unlink(missing_ok=True)  # a kept folder's earlier file must not pass for this run's
    with log.open("w") as written:
        try:
            status = run_to_end(command, written)
        except OSError as error:
            raise RunFailed(f"cannot run {binary}: {error.strerror}") from None
    if status not in (0, 1) or not output.is_file() or output.stat().st_size == 0:
        tail = "".join(log.read_text(errors="replace").splitlines(keepends=True)[-5:])
        raise RunFailed(f"{binary} exited {status} with no results (log {log}):\n"
                        f"{tail}")  # fmt: skip


def run_pairs(
    baseline: str,
    contender: str,
    pairs: int,
    common: Sequence[str],
    contender_only: Sequence[str],
    folder: Path,
) -> tuple[list[Path], list[Path]]:
    """The warm-up, then the pairs; returns each side's results files in pair order."""
    warm_up = folder / f"{WARM_UP}.json"
    print("compare-builds: warm-up run of the baseline", file=sys.stderr)
    run_bench(baseline, common, warm_up, folder / f"{WARM_UP}.log")
    reuse = []
    if read_results_document(warm_up).get("handoff_ceilings"):
        reuse = [f"--handoff-ceilings-from={warm_up}"]
    sides: dict[str, list[Path]] = {"baseline": [], "contender": []}
    binaries = {"baseline": (baseline, []), "contender": (contender, list(contender_only))}
    for pair in range(1, pairs + 1):
        order = ("baseline", "contender") if pair % 2 == 1 else ("contender", "baseline")
        for side in order:
            binary, extra = binaries[side]
            # "a" and "b", not "baseline" and "contender": the two runs' command lines must be
            # the same length, since the bytes of argv shift where the process's stack and heap
            # start, which alone can move a short row by more than the changes compare looks for
            # (figures: docs/design/measured-along-the-way.md,
            # "Why compare-builds names its runs a and b").
            stem = f"{'a' if side == 'baseline' else 'b'}-{pair}"
            output = folder / f"{stem}.json"
            run_bench(binary, [*common, *reuse, *extra], output, folder / f"{stem}.log")
            sides[side].append(output)
        print(f"compare-builds: pair {pair} of {pairs} done", file=sys.stderr)
    return sides["baseline"], sides["contender"]


def merged_side(files: Sequence[Path], output: Path) -> Path:
    documents = [read_results_document(path) for path in files]
    write_atomically(output, json.dumps(merge_documents(documents, [str(p) for p in files])))
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="handoff-compare-builds",
        description=__doc__.split("\n\n")[0],
        usage="%(prog)s [options] BASELINE CONTENDER [-- HANDOFF_BENCH_ARGUMENTS...]",
        epilog="Arguments after -- go to both binaries (a filter, sampling flags). Exit status: "
        "compare's (0 no regression, 1 a regression or a failed row), 2 when a run wrote no "
        "results or the inputs are bad.",
    )
    parser.add_argument("baseline", help="the baseline handoff_bench binary")
    parser.add_argument("contender", help="the contender handoff_bench binary")
    parser.add_argument(
        "--pairs",
        type=whole_number(6),  # fewer pairs give the median ratio no interval
        default=9,
        help="runs of each binary, in turn (default 9; 6 at least)",
    )
    parser.add_argument(
        "--contender-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="an argument for the contender only (repeatable), e.g. a planted slowdown",
    )
    parser.add_argument("--threshold", type=fraction, help="compare's default relative threshold")
    parser.add_argument(
        "--ignore-settings",
        action="store_true",
        help="compare builds whose measurement settings differ (a changed default, such as the "
        "spin's length) instead of calling every row NOT COMPARABLE",
    )
    parser.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    parser.add_argument(
        "--keep", type=Path, metavar="DIR", help="keep every run's results and log in DIR"
    )
    given = list(sys.argv[1:] if argv is None else argv)
    # Everything after -- is the binaries' own, split off before argparse sees it.
    split = given.index("--") if "--" in given else len(given)
    bench_arguments = given[split + 1 :]
    arguments = parser.parse_args(given[:split])
    # Both programs and the folder are checked before either program runs: a slip in the
    # contender's path would otherwise show only after the warm-up run.
    for binary in (arguments.baseline, arguments.contender):
        if shutil.which(binary) is None:
            print(f"handoff-compare-builds: {binary}: no such program, or not executable",
                  file=sys.stderr)  # fmt: skip
            return 2
    try:
        kept = check_output_folder(arguments.keep) if arguments.keep else None
    except OutputError as error:
        print(f"handoff-compare-builds: {error}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        folder = kept or Path(scratch)
        try:
            baseline_files, contender_files = run_pairs(
                arguments.baseline,
                arguments.contender,
                arguments.pairs,
                bench_arguments,
                arguments.contender_arg,
                folder,
            )
            baseline = load_results(merged_side(baseline_files, folder / "baseline.json"))
            contender = load_results(merged_side(contender_files, folder / "contender.json"))
        except (RunFailed, ResultsError, MergeError, OutputError) as error:
            print(f"handoff-compare-builds: {error}", file=sys.stderr)
            return 2
        thresholds = Thresholds()
        if arguments.threshold is not None:
            thresholds = thresholds.with_default(arguments.threshold)
        comparison = compare_runs(
            baseline, contender, thresholds, ignore_settings=arguments.ignore_settings, paired=True
        )
        if arguments.format == "text":
            print(format_report(comparison))
        else:
            from handoff_reports.compare_formats import format_json, format_markdown

            formatted = format_json if arguments.format == "json" else format_markdown
            print(formatted(comparison))
        return comparison.exit_code

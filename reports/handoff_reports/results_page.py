"""`results-page`: one machine's results as a Markdown page (docs/results/), written from one
run's results files, so that no figure on the page is typed by hand.

The page names its machine, says which run it comes from and the command that writes it again,
then gives the articles' claims as that run decides them, the headline table (between the markers
`handoff-headline --into` writes between), what Python costs where the run measured the articles'
Python recipes, and the ceilings measured. A main job writes two files, its rows and its Python
recipes' (ci/bench): given both, the page reads them as the report does, the claims decided on
the Python recipe where one was measured.

handoff-results-page docs/results/runs/h200-default-profile.json \
    docs/results/runs/h200-default-profile-python.json -o docs/results/h200.md
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from handoff_reports.claims import ClaimsError, evaluate_claims, load_claims
from handoff_reports.formatting import ceiling_text
from handoff_reports.headline import BLOCK_BEGIN, BLOCK_END, headline_table, markdown_table
from handoff_reports.input_files import InputError
from handoff_reports.machines import CPU_MODEL, CUDA_RUNTIME, DRIVER, GPU_MODEL, machine_identity
from handoff_reports.output_files import OutputError, check_output_file, write_atomically
from handoff_reports.python_cost import markdown_table as python_cost_table
from handoff_reports.python_cost import python_cost_lines
from handoff_reports.results import ResultsError, Row, Run, by_process, load_all
from handoff_reports.together import runs_together
from handoff_reports.variants import run_variants

PROGRAM = "handoff-results-page"
UNSTATED = "not stated"

HEADLINE_INTRO = (
    "Each pattern at its default size: the articles' recipe as written (with its named fixes "
    "only), the fastest variant measured, and the best way on the CPU alone, each with its "
    "median, the median's 95% interval, its floor from this run's ceilings and the fraction of it "
    "reached; then the recipe's time over the fastest's. A figure over its floor is marked "
    "`SUSPECT`."
)


PYTHON_COST_INTRO = (
    "Each of the articles' recipes written in Python beside the C++ recipe it stands for and the "
    "fastest C++ variant at the same point, each with its median and interval, and the ratios."
)


def regenerate_command(files: Sequence[str], page: str) -> str:
    # The interpreter of the environment ci/setup makes, which has the package installed.
    command = [".venv/bin/python", "-m", "handoff_reports", "results-page", *files, "-o", page]
    return shlex.join(command)


def machine_title(run: Run) -> str:
    """'1 × NVIDIA H200, Intel(R) Xeon(R) Processor (16 cores)'."""
    identity = machine_identity(run.context)
    gpus = f"{run.gpu_count} × {identity[GPU_MODEL]}" if run.gpu_count else "no GPU"
    cores = run.context.get("handoff_cpu_cores")
    cpu = identity[CPU_MODEL] or f"CPU {UNSTATED}"
    return f"{gpus}, {cpu}" + (f" ({cores} cores)" if cores else "")


def software_line(run: Run) -> str:
    """'Driver 580.159.04, CUDA runtime 13.0.'"""
    identity = machine_identity(run.context)
    return (
        f"Driver {identity[DRIVER] or UNSTATED}, CUDA runtime {identity[CUDA_RUNTIME] or UNSTATED}."
    )


def _processes(run: Run) -> str:
    """'3 processes', or where rows had different counts (ci/bench gives more processes to the
    rows that vary) '3 to 8 processes a row (221 rows in 3, 48 in 8)'."""
    counts = Counter(len(by_process(row.repetition_figures)) for row in run.rows.values())
    if not counts:
        return "no process"
    if len(counts) == 1:
        (count,) = counts
        return f"{count} process" + ("" if count == 1 else "es")
    ordered = sorted(counts.items())
    rows = ", ".join(
        f"{rows} rows in {count}" if index == 0 else f"{rows} in {count}"
        for index, (count, rows) in enumerate(ordered)
    )
    return f"{ordered[0][0]} to {ordered[-1][0]} processes a row ({rows})"


def _markdown_text(text: str) -> str:
    # The claims' figures hold "α*", which Markdown would read as the start of emphasis.
    return text.replace("*", "\\*")


def _one_file(run: Run, results: str, page: str) -> str:
    benchmarks = run.benchmark_rows()
    failed = sum(row.failed for row in benchmarks)
    link = Path(os.path.relpath(results, Path(page).parent)).as_posix()
    settings = run.settings
    text = (
        f"[`{results}`]({link}): commit `{run.context.get('handoff_git_commit', UNSTATED)}`, "
        f"{run.date or 'date ' + UNSTATED}, profile `{settings.profile or UNSTATED}` in "
        f"{_processes(run)}; {len(benchmarks)} benchmark rows"
        + (f" ({failed} failed)" if failed else "")
        + f" and {len(run.rows) - len(benchmarks)} ceiling rows measured."
    )
    if run.run_state.incomplete:
        text += f" The run is incomplete: {run.run_state.reason or 'no reason given'}."
    return text


def which_run(runs: Sequence[Run], files: Sequence[str], page: str) -> str:
    text = "From " + _one_file(runs[0], files[0], page)
    for run, results in zip(runs[1:], files[1:], strict=True):
        text += " Beside it, from " + _one_file(run, results, page)
    return (
        f"{text} This page is written from {'that file' if len(files) == 1 else 'those files'}, "
        f"from the repository root, by\n\n```\n{regenerate_command(files, page)}\n```\n"
    )


def ceilings_section(run: Run) -> str:
    lines = ["| ceiling | figure |", "|---|---|"]
    ceilings = sorted(run.ceilings.values(), key=lambda ceiling: ceiling.name)
    lines += [f"| {ceiling.name} | {ceiling_text(ceiling)} |" for ceiling in ceilings]
    source = f"Ceilings {run.ceilings_source.line}.\n\n" if run.ceilings_source else ""
    return source + "\n".join(lines) + "\n"


def claims_section(run: Run) -> str:
    verdicts = evaluate_claims(run, load_claims())
    return "".join(
        f"- **{verdict.verdict}**, `{verdict.claim.id}`: {_markdown_text(verdict.claim.statement)} "
        f"— {_markdown_text(verdict.figures)}.\n"
        for verdict in verdicts
    )


def python_cost_section(rows: Sequence[Row], together: Run) -> str:
    if not (lines := python_cost_lines(rows, run_variants(together))):
        return ""
    return f"## What Python costs\n\n{PYTHON_COST_INTRO}\n\n{python_cost_table(lines)}"


def results_page(runs: Sequence[Run], files: Sequence[str], page: str) -> str:
    """The page for one run's files (its main job's first), read from files, to be written as
    page (each named as the command that writes the page names it)."""
    main_job, together = runs[0], runs_together(runs)
    rows = [row for run in runs for row in run.benchmark_rows()]
    sections = [
        f"# Results: {machine_title(main_job)}\n",
        f"<!-- Written by {PROGRAM} from {' and '.join(files)}; do not edit. -->\n",
        f"{software_line(main_job)}\n",
        f"## Which run\n\n{which_run(runs, files, page)}",
        f"## The articles' claims\n\n{claims_section(together)}",
        f"## Headline\n\n{HEADLINE_INTRO}\n\n"
        f"{BLOCK_BEGIN}\n{markdown_table(headline_table(rows))}{BLOCK_END}\n",
        python_cost_section(rows, together),
        f"## Ceilings\n\n{ceilings_section(main_job)}",
    ]
    return "\n".join(section for section in sections if section)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=PROGRAM,
        description="Write one machine's results page (Markdown) from one run's handoff_bench "
        "results files (a main job's, then its Python recipes' where it has them): the machine, "
        "which run it is, the articles' claims, the headline table, what Python costs and the "
        "ceilings.",
    )
    parser.add_argument(
        "results", nargs="+", help="the run's results JSON files, the main job's first"
    )
    parser.add_argument("-o", "--output", required=True, metavar="PAGE", help="the page to write")
    arguments = parser.parse_args(argv)
    files = [Path(results).as_posix() for results in arguments.results]
    page = Path(arguments.output).as_posix()
    try:
        target = check_output_file(page)
        runs = load_all(files)
        for run, results in zip(runs, files, strict=True):
            if not run.benchmark_rows():
                raise ResultsError(f"{results}: no rows measured")
        if not headline_table([row for run in runs for row in run.benchmark_rows()]):
            raise ResultsError(f"{' and '.join(files)}: no row of any pattern at its default point")
        write_atomically(target, results_page(runs, files, page))
    except (InputError, OutputError, ClaimsError) as error:
        print(f"{PROGRAM}: {error}", file=sys.stderr)
        return 2
    print(f"{PROGRAM}: wrote {page}")
    return 0

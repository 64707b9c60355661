"""Entry points: `python -m handoff_reports COMMAND ...`, and a `handoff-COMMAND` script for every
command (pyproject.toml names them; each command's usage text uses that name). Both run the
command through stops.run_command, so that every command stops the same way on Ctrl-C, SIGTERM
or a closed stdout."""

from __future__ import annotations

import sys
from collections.abc import Callable

from handoff_reports.stops import run_command

COMMANDS = {
    "report": "write one self-contained HTML report from results JSON files",
    "compare": "compare a contender run with a baseline; exit 1 on a regression",
    "track": "nightly history: ingest, check for change points, html dashboard",
    "progress": "turn handoff_bench's console output into a progress line per family",
    "previous": "the newest earlier night from the same GPUs",
    "claims": "the articles' claims and this run's verdict on each",
    "merge": "several passes of handoff_bench into one results file, a repetition each",
    "headline": "per pattern at its default size: recipe, fastest variant, best CPU way",
    "compare-builds": "run two handoff_bench binaries in turn here and compare them pair by pair",
    "results-page": "one machine's results page (Markdown) from one results file",
    "wide-rows": "the rows whose processes disagree enough to earn more processes, as a filter",
    "processes": "why a row's processes disagree: each one's figure beside its sleeps and machine",
}


def _command(name: str) -> Callable[[list[str] | None], int]:
    # Imported on demand: `track` pulls in otava and SciPy, which `report` alone does not need.
    if name == "report":
        from handoff_reports.report import main as report

        return report
    if name == "compare":
        from handoff_reports.compare_cli import main as compare

        return compare
    if name == "track":
        from handoff_reports.track.cli import main as track

        return track
    if name == "merge":
        from handoff_reports.merge import main as merge

        return merge
    if name == "claims":
        from handoff_reports.claims import main as claims

        return claims
    if name == "compare-builds":
        from handoff_reports.compare_builds import main as compare_builds

        return compare_builds
    if name == "headline":
        from handoff_reports.headline import main as headline

        return headline
    if name == "results-page":
        from handoff_reports.results_page import main as results_page

        return results_page
    if name == "previous":
        from handoff_reports.previous import main as previous

        return previous
    if name == "wide-rows":
        from handoff_reports.wide_rows import main as wide_rows

        return wide_rows
    if name == "processes":
        from handoff_reports.process_causes import main as processes

        return processes
    from handoff_reports.progress import main as progress

    return progress


def run(name: str, argv: list[str] | None) -> int:
    """Command name on argv (None: sys.argv), stopped as stops.py says."""
    # The command is imported inside the guard too: a Ctrl-C during matplotlib's import is one.
    return run_command(f"handoff-{name}", lambda: _command(name)(argv))


def _script(name: str) -> Callable[[], int]:
    """The entry point of the `handoff-<name>` script (pyproject.toml)."""
    return lambda: run(name, None)


report_main = _script("report")
compare_main = _script("compare")
track_main = _script("track")
merge_main = _script("merge")
claims_main = _script("claims")
previous_main = _script("previous")
progress_main = _script("progress")
headline_main = _script("headline")
compare_builds_main = _script("compare-builds")
results_page_main = _script("results-page")
wide_rows_main = _script("wide-rows")
processes_main = _script("processes")


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if not arguments or arguments[0] not in COMMANDS:
        usage = "\n".join(f"  {name:<14} {text}" for name, text in COMMANDS.items())
        print(f"usage: python -m handoff_reports COMMAND [ARGS]\n{usage}", file=sys.stderr)
        return 0 if arguments and arguments[0] in ("-h", "--help") else 2
    return run(arguments[0], arguments[1:])

"""`previous`: the newest earlier results file, under a folder of nights, from the same GPUs (the
same models in the same number), so that a night is compared with a night of the same machine.
Prints its path, or nothing when there is none."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from handoff_reports.arguments import existing_directory
from handoff_reports.results import ResultsError, Run, load_results


def gpu_models(run: Run) -> tuple[str, ...]:
    return tuple(run.manifest.get(f"handoff_gpu{i}_name", "") for i in range(run.gpu_count))


def find_previous(root: Path, current: Path) -> Path | None:
    run = load_results(current)
    candidates = []
    for path in root.rglob("handoff-*.json"):
        if path.resolve() == current.resolve():
            continue
        try:
            earlier = load_results(path)
        except ResultsError:
            continue  # a night that died half-written is no baseline
        if gpu_models(earlier) == gpu_models(run) and earlier.date < run.date:
            candidates.append((earlier.date, path))
    return max(candidates)[1] if candidates else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="handoff-previous", description=__doc__)
    parser.add_argument("--root", type=existing_directory, required=True,
                        help="the folder of earlier nights")  # fmt: skip
    parser.add_argument("current", type=Path, help="this night's results JSON")
    arguments = parser.parse_args(argv)
    try:
        previous = find_previous(arguments.root, arguments.current)
    except ResultsError as error:
        print(f"handoff-previous: {error}", file=sys.stderr)
        return 2
    if previous is not None:
        print(previous)
    return 0

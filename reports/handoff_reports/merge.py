"""`merge`: several runs of the same benchmarks (ci/nightly's passes) into one results file, each
run one repetition.

Why not Google Benchmark's own repetitions with random interleaving: interleaving every benchmark
with every other keeps every family's cached workers and device buffers alive at once, which ran
an H200 out of memory, and its statistics abort when one repetition errors. Separate passes, each
in its own shuffled family order (--handoff-shuffle-families), interleave the repetitions without
either problem, and measure the ceilings once per pass.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from handoff_reports.results import ResultsError, read_results_document


def _median_ceilings(documents: list[dict[str, Any]]) -> dict[str, Any]:
    values: dict[str, list[float]] = {}
    units: dict[str, str] = {}
    for document in documents:
        for name, figure in document.get("handoff_ceilings", {}).items():
            values.setdefault(name, []).append(float(figure["value"]))
            units[name] = str(figure["unit"])
    return {
        name: {"value": statistics.median(found), "unit": units[name], "passes": len(found)}
        for name, found in sorted(values.items())
    }


def merge_documents(documents: list[dict[str, Any]]) -> dict[str, Any]:
    """The first pass's context, every pass's rows as repetitions, each ceiling's median."""
    merged = copy.deepcopy(documents[0])
    merged["context"]["handoff_passes"] = str(len(documents))
    merged["handoff_ceilings"] = _median_ceilings(documents)
    merged["benchmarks"] = []
    for index, document in enumerate(documents):
        for entry in document["benchmarks"]:
            if entry.get("run_type", "iteration") != "iteration":
                continue
            repetition = dict(entry)
            repetition["repetition_index"] = index
            repetition["repetitions"] = len(documents)
            merged["benchmarks"].append(repetition)
    return merged


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="handoff-merge", description=__doc__.split("\n\n")[0])
    parser.add_argument("passes", nargs="+", type=Path, help="results JSON files, one per pass")
    parser.add_argument("-o", "--output", required=True, type=Path)
    arguments = parser.parse_args(argv)
    try:
        documents = [read_results_document(path) for path in arguments.passes]
    except ResultsError as error:
        print(f"handoff-merge: {error}", file=sys.stderr)
        return 2
    arguments.output.write_text(json.dumps(merge_documents(documents), indent=1) + "\n")
    print(f"handoff-merge: {len(documents)} passes into {arguments.output}")
    return 0

"""`merge`: several runs of the same benchmarks (ci/nightly's passes) into one results file, each
run one repetition.

Why not Google Benchmark's own repetitions with random interleaving: interleaving every benchmark
with every other keeps every family's cached workers and device buffers alive at once, which ran
an H200 out of memory, and its statistics abort when one repetition errors. Separate passes, each
in its own shuffled family order (--handoff-shuffle-families), interleave the repetitions without
either problem, and measure the ceilings once per pass.

Each pass's rows are copied whole, so every repetition keeps its own samples, noise and interval
(ci_low, ci_high) and the token of the process that measured it (`handoff_process`); the merged
context is the first pass's, settings included, with `handoff_processes` counting the processes
instead of one process's token. A file written before processes were named was measured by one
process: its rows get a token of their own, made from the file's name and position, so that
passes merged from separate files count as separate processes, and never as one.

Passes measured with different settings (profile, max_noise, min_samples, min_time, timeout,
max_elements) are refused: their repetitions would not be repetitions of one measurement. A
merged file is incomplete when any pass was, or when a file holds fewer repetitions than its rows
say it was asked for. A file without rows is refused: it would count as a repetition that holds
nothing.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from handoff_reports.input_files import is_finite_number
from handoff_reports.output_files import OutputError, check_output_file, write_atomically
from handoff_reports.results import (
    MEASUREMENT_SETTINGS,
    ResultsError,
    RunSettings,
    read_results_document,
)


class MergeError(ValueError):
    """Passes that cannot be merged into one results file."""


def _check_settings(documents: list[dict[str, Any]], names: list[str]) -> None:
    def settings(document: dict[str, Any]) -> dict[str, str | None]:
        return RunSettings.from_context(document.get("context", {})).measurement()

    first = settings(documents[0])
    for name, document in zip(names[1:], documents[1:], strict=True):
        found = settings(document)
        differences = [
            f"{key} {first[key] or 'unknown'} in {names[0]}, {found[key] or 'unknown'} in {name}"
            for key in MEASUREMENT_SETTINGS
            if found[key] != first[key]
        ]
        if differences:
            raise MergeError(
                "passes measured with different settings cannot be merged: "
                + "; ".join(differences)
            )


def _run_state(documents: list[dict[str, Any]]) -> dict[str, Any] | None:
    states = [d["handoff_run"] for d in documents if isinstance(d.get("handoff_run"), dict)]
    if not states:
        return None
    incomplete = [state for state in states if state.get("state") == "incomplete"]
    reasons = sorted({str(state.get("reason") or "") for state in incomplete} - {""})
    rows = sum(int(state.get("rows") or 0) for state in states)
    return {
        "state": "incomplete" if incomplete else "complete",
        "reason": "; ".join(reasons) if incomplete else "",
        "rows": rows,
    }


def _median_ceilings(documents: list[dict[str, Any]]) -> dict[str, Any]:
    """Each ceiling's median over the passes, and its median rate at each size it was measured
    at (`rate_by_bytes`), so that a run reusing the merged file (--handoff-ceilings-from) prices a
    row's floor at its size as the passes did."""
    values: dict[str, list[float]] = {}
    units: dict[str, str] = {}
    rates: dict[str, dict[float, list[float]]] = {}
    for document in documents:
        for name, figure in document.get("handoff_ceilings", {}).items():
            values.setdefault(name, []).append(float(figure["value"]))
            units[name] = str(figure["unit"])
            for size, rate in figure.get("rate_by_bytes", []):
                rates.setdefault(name, {}).setdefault(float(size), []).append(float(rate))
    merged: dict[str, Any] = {}
    for name, found in sorted(values.items()):
        merged[name] = {
            "value": statistics.median(found),
            "unit": units[name],
            "passes": len(found),
        }
        if name in rates:
            merged[name]["rate_by_bytes"] = [
                [size, statistics.median(at_size)] for size, at_size in sorted(rates[name].items())
            ]
    return merged


def _repetition_index(entry: dict[str, Any], where: str) -> int:
    """The entry's repetition_index, 0 where it has none; a damaged one refuses the merge, since
    renumbering the passes' repetitions rests on it."""
    value = entry.get("repetition_index", 0)
    if not is_finite_number(value) or value < 0 or value != int(value):
        raise MergeError(
            f"{where}: {entry.get('name')!r}: repetition_index {value!r} is not a count"
        )
    return int(value)


def merge_documents(
    documents: list[dict[str, Any]], names: list[str] | None = None
) -> dict[str, Any]:
    """The first pass's context, every pass's rows as repetitions, each ceiling's median.

    Raises MergeError when the passes were measured with different settings."""
    names = names or [f"pass {i}" for i in range(len(documents))]
    _check_settings(documents, names)
    merged = copy.deepcopy(documents[0])
    state = _run_state(documents)
    merged["handoff_ceilings"] = _median_ceilings(documents)
    merged["benchmarks"] = []
    absent: list[str] = []
    # A file of handoff_bench --handoff-passes=N holds N passes already: each of its repetitions
    # stays one, numbered after the passes of the files before it.
    first_index = 0
    processes: set[str] = set()
    for position, (name, document) in enumerate(zip(names, documents, strict=True)):
        entries = _rows(document, name)
        unnamed = _unnamed_process(document, name, position)
        indexes = {_repetition_index(entry, name) for entry in entries}
        passes = max(indexes) + 1
        if len(indexes) < (claimed := max(passes, _claimed_repetitions(entries))):
            absent.append(f"{name}: {len(indexes)} of {claimed} repetitions have rows")
        for entry in entries:
            repetition = dict(entry)
            repetition["repetition_index"] = first_index + _repetition_index(entry, name)
            if not _has_token(repetition):
                repetition["handoff_process"] = unnamed
            processes.add(repetition["handoff_process"])
            merged["benchmarks"].append(repetition)
        first_index += passes
    for repetition in merged["benchmarks"]:
        repetition["repetitions"] = first_index
    merged["context"]["handoff_passes"] = str(first_index)
    merged["context"].pop("handoff_process", None)  # one process's token; the file holds many
    merged["context"]["handoff_processes"] = str(len(processes))
    if absent:
        # Each row's figure would stand on fewer repetitions than the file says it has.
        state = state or {"rows": len(merged["benchmarks"])}
        reasons = (
            [state["reason"]] if state.get("state") == "incomplete" and state["reason"] else []
        )
        state.update(state="incomplete", reason="; ".join(reasons + absent))
    if state is not None:
        merged["handoff_run"] = state
    return merged


def _has_token(entry: dict[str, Any]) -> bool:
    token = entry.get("handoff_process")
    return isinstance(token, str) and bool(token)


def _unnamed_process(document: dict[str, Any], name: str, position: int) -> str:
    """The token for the rows of a file that name no process: the file's own, where its context
    names one, else one made from its name and position among the merged files."""
    context_token = document.get("context", {}).get("handoff_process")
    if isinstance(context_token, str) and context_token:
        return context_token
    return f"{Path(name).name}#{position}"


def _rows(document: dict[str, Any], where: str) -> list[dict[str, Any]]:
    """The document's measured rows (not Google Benchmark's aggregates); none is a MergeError:
    a pass without rows would count as a repetition that holds nothing."""
    entries = [
        entry
        for entry in document["benchmarks"]
        if entry.get("run_type", "iteration") == "iteration"
    ]
    if not entries:
        raise MergeError(f"{where}: no rows to merge")
    return entries


def _claimed_repetitions(entries: list[dict[str, Any]]) -> int:
    """The most repetitions any row says its run was asked for (Google Benchmark's
    `repetitions`); 0 where none says."""
    claims: list[Any] = [entry.get("repetitions") for entry in entries]
    return max((int(claim) for claim in claims if is_finite_number(claim) and claim > 0), default=0)


def split_alternating(document: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The odd passes (1, 3, ...) and the even passes (2, 4, ...) of one run of several passes, each
    a run of its own with its passes numbered from 0, in order: the two sides of a run made with
    handoff_bench --handoff-plant-alternate, for compare --paired."""
    halves: list[dict[str, Any]] = []
    for parity in (0, 1):
        half = copy.deepcopy({k: v for k, v in document.items() if k != "benchmarks"})
        entries = [
            dict(entry)
            for entry in document.get("benchmarks", [])
            if entry.get("run_type", "iteration") == "iteration"
            and int(entry.get("repetition_index", 0)) % 2 == parity
        ]
        entries.sort(key=lambda entry: int(entry.get("repetition_index", 0)))
        passes = max((int(e.get("repetition_index", 0)) // 2 + 1 for e in entries), default=0)
        for entry in entries:
            entry["repetition_index"] = int(entry.get("repetition_index", 0)) // 2
            entry["repetitions"] = passes
        half["benchmarks"] = entries
        half.setdefault("context", {})["handoff_passes"] = str(passes)
        halves.append(half)
    return halves[0], halves[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="handoff-merge", description=__doc__.split("\n\n")[0])
    parser.add_argument("passes", nargs="+", type=Path, help="results JSON files, one per pass")
    parser.add_argument("-o", "--output", required=True, type=Path)
    arguments = parser.parse_args(argv)
    try:
        check_output_file(arguments.output)
        documents = [read_results_document(path) for path in arguments.passes]
        merged = merge_documents(documents, [str(path) for path in arguments.passes])
        write_atomically(arguments.output, json.dumps(merged, indent=1) + "\n")
    except (OutputError, ResultsError, MergeError) as error:
        print(f"handoff-merge: {error}", file=sys.stderr)
        return 2
    print(f"handoff-merge: {len(documents)} passes into {arguments.output}")
    return 0

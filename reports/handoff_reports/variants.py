"""Each pattern's variants as the run recorded them (context `handoff_variants`, written by
handoff_bench from its variant tables): name, one-line description, whether it is the article's
recipe and whether it is a CPU way. Files written before the record have none.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from handoff_reports.results import ResultsError, Run

CONTEXT_KEY = "handoff_variants"


@dataclass(frozen=True)
class Variant:
    name: str
    description: str
    recipe: bool
    cpu: bool


def _variant(entry: Any, where: str) -> Variant:
    if not isinstance(entry, Mapping):
        raise ResultsError(f"{where}: not an object")
    name, description = entry.get("name"), entry.get("description")
    recipe, cpu = entry.get("recipe"), entry.get("cpu")
    if not isinstance(name, str) or not name or not isinstance(description, str):
        raise ResultsError(f"{where}: needs a name and a description, both text")
    if not isinstance(recipe, bool) or not isinstance(cpu, bool):
        raise ResultsError(f"{where}: recipe and cpu must be true or false")
    return Variant(name, description, recipe, cpu)


def parse_variants(text: Any, where: str) -> dict[str, tuple[Variant, ...]]:
    """The record as JSON text: {pattern: [variant, ...]}."""
    where = f"{where}: context {CONTEXT_KEY}"
    if not isinstance(text, str):
        raise ResultsError(f"{where}: not a JSON text")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ResultsError(f"{where}: not JSON ({error})") from None
    if not isinstance(document, Mapping):
        raise ResultsError(f"{where}: not an object of patterns")
    patterns: dict[str, tuple[Variant, ...]] = {}
    for pattern, entries in document.items():
        if not isinstance(entries, Sequence) or isinstance(entries, str):
            raise ResultsError(f"{where}: {pattern} is not a list of variants")
        patterns[pattern] = tuple(
            _variant(entry, f"{where}: {pattern}[{index}]") for index, entry in enumerate(entries)
        )
    return patterns


def run_variants(run: Run) -> dict[str, tuple[Variant, ...]]:
    """The run's record, or {} for a file written before it."""
    if CONTEXT_KEY not in run.context:
        return {}
    return parse_variants(run.context[CONTEXT_KEY], run.path)


def variants_of(runs: Iterable[Run]) -> dict[str, tuple[Variant, ...]]:
    """Every run's record together: each pattern's variants in the order first recorded, a
    variant two runs share once, described as the first run that has it describes it."""
    merged: dict[str, dict[str, Variant]] = {}
    for run in runs:
        for pattern, variants in run_variants(run).items():
            known = merged.setdefault(pattern, {})
            for variant in variants:
                known.setdefault(variant.name, variant)
    return {pattern: tuple(variants.values()) for pattern, variants in merged.items()}

"""Each pattern's variants as the run recorded them (context `handoff_variants`, written by
handoff_bench from its variant tables): name, one-line description, whether it is the article's
recipe, whether it is a CPU way, and its language: "python" for the rows `python -m handoff`
measures, "c++" for handoff_bench's, which write none. Files written before the record have none.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from handoff_reports.results import ResultsError, Run

CONTEXT_KEY = "handoff_variants"
# The languages a row can be written in; handoff_bench's record names none, so C++ is the default.
CPP, PYTHON = "c++", "python"


@dataclass(frozen=True)
class Variant:
    name: str
    description: str
    recipe: bool
    cpu: bool
    language: str = CPP

    @property
    def python(self) -> bool:
        return self.language == PYTHON


# Each pattern's variants, in its table's order.
VariantRecord = dict[str, tuple[Variant, ...]]


def _variant(entry: Any, where: str) -> Variant:
    if not isinstance(entry, Mapping):
        raise ResultsError(f"{where}: not an object")
    name, description = entry.get("name"), entry.get("description")
    recipe, cpu = entry.get("recipe"), entry.get("cpu")
    if not isinstance(name, str) or not name or not isinstance(description, str):
        raise ResultsError(f"{where}: needs a name and a description, both text")
    if not isinstance(recipe, bool) or not isinstance(cpu, bool):
        raise ResultsError(f"{where}: recipe and cpu must be true or false")
    language = entry.get("language", CPP)
    if language not in (CPP, PYTHON):
        raise ResultsError(f"{where}: language must be {CPP!r} or {PYTHON!r}, not {language!r}")
    return Variant(name, description, recipe, cpu, language)


def parse_variants(text: Any, where: str) -> VariantRecord:
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


def record_text(record: Mapping[str, Sequence[Variant]]) -> str:
    """The record as JSON text in handoff_bench's form, which parse_variants reads back in the
    same order: patterns and variants keep theirs, since styles are handed out in it. A C++
    variant's language is left out, as handoff_bench leaves it out, so stored records stay as they
    were."""
    document = {pattern: [_entry(variant) for variant in variants]
                for pattern, variants in record.items()}  # fmt: skip
    return json.dumps(document)


def _entry(variant: Variant) -> dict[str, Any]:
    entry = asdict(variant)
    if variant.language == CPP:
        del entry["language"]
    return entry


def run_variants(run: Run) -> VariantRecord:
    """The run's record, or {} for a file written before it."""
    if CONTEXT_KEY not in run.context:
        return {}
    return parse_variants(run.context[CONTEXT_KEY], run.path)


def merge_records(records: Iterable[Mapping[str, Sequence[Variant]]]) -> VariantRecord:
    """Several records as one: each pattern's variants in the order first recorded, a variant
    two records share once, described as the first record that has it describes it."""
    merged: dict[str, dict[str, Variant]] = {}
    for record in records:
        for pattern, variants in record.items():
            known = merged.setdefault(pattern, {})
            for variant in variants:
                known.setdefault(variant.name, variant)
    return {pattern: tuple(variants.values()) for pattern, variants in merged.items()}


def variants_of(runs: Iterable[Run]) -> VariantRecord:
    """Every run's record together, the first run's order first (merge_records)."""
    return merge_records(run_variants(run) for run in runs)


def variants_seen(runs: Iterable[Run]) -> VariantRecord:
    """Each pattern's variants in the order the runs' rows name them, undescribed: what a file
    written before the record still says of its variants, so that its plots can tell them apart."""
    seen: dict[str, dict[str, Variant]] = {}
    for run in runs:
        for row in run.benchmark_rows():
            pattern, variant = row.name.pattern, row.name.variant
            seen.setdefault(pattern, {}).setdefault(variant, Variant(variant, "", False, False))
    return {pattern: tuple(variants.values()) for pattern, variants in seen.items()}

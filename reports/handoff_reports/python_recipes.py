"""Which rows are the articles' recipes written in Python, and which C++ recipe each stands beside.

Both come from the runs' variants records (variants.py), never from a list here: a Python recipe
is a variant recorded with `recipe` true and language "python" (`python -m handoff` writes them);
the C++ variant it stands beside is the pattern's C++ variant of the same name without `python_`
(python_queue beside queue, python_gpu_transfers beside gpu_transfers, which the C++ table does
not flag as the article's recipe: the article wrote it in PyTorch), else the pattern's `seed`,
else its first C++ recipe. A pattern whose record has none of these gives its Python recipe
nothing to stand beside, and it is left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from handoff_reports.variants import Variant

PREFIX = "python_"
SEED = "seed"


@dataclass(frozen=True)
class PythonRecipe:
    pattern: str
    variant: str  # the Python recipe's variant, e.g. python_seed
    stands_for: str  # the C++ variant it is the Python form of, e.g. seed


def _counterpart(python: Variant, variants: Sequence[Variant]) -> str | None:
    cpp = [v.name for v in variants if not v.python]
    if (namesake := python.name.removeprefix(PREFIX)) in cpp:
        return namesake
    cpp_recipes = [v.name for v in variants if v.recipe and not v.python]
    if SEED in cpp_recipes:
        return SEED
    return cpp_recipes[0] if cpp_recipes else None


def python_recipes(record: Mapping[str, Sequence[Variant]]) -> list[PythonRecipe]:
    """Every Python recipe of the record with the C++ recipe it stands beside, in record order."""
    found = []
    for pattern, variants in record.items():
        for variant in variants:
            if not (variant.recipe and variant.python):
                continue
            if (stands_for := _counterpart(variant, variants)) is not None:
                found.append(PythonRecipe(pattern, variant.name, stands_for))
    return found


def python_variants(record: Mapping[str, Sequence[Variant]]) -> dict[str, set[str]]:
    """Each pattern's variants written in Python, recipes or not: never a C++ 'fastest'."""
    return {pattern: {v.name for v in variants if v.python} for pattern, variants in record.items()}


def same_point(key: str, variant: str) -> str:
    """The row name `key` with its variant (second segment) replaced: the same point."""
    parts = key.split("/")
    return "/".join([parts[0], variant, *parts[2:]]) if len(parts) > 1 else key

"""A claim decided on the recipe the article wrote: its Python row, where the run has one.

A claim that rests on a C++ recipe's row (`seed`, or tensor_transfer's `queue` and `pipe`) is
about the article's code, and the article's code is Python: where the run holds the Python
recipe's row at the same point (python_recipes.py says which), that row decides the claim in the
C++ row's place, and the verdict says so; of two Python forms of one recipe, the one that runs
where the C++ recipe runs (on the GPU) decides. Where there is none, the claim is decided as
before.
The rest of the rules (verification, SUSPECT rows, the process level) are the claim's own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from handoff_reports.claims_file import BreakEven, Claim, Faster, Fastest, RowPattern, Rule
from handoff_reports.python_recipes import PythonRecipe, python_recipes, same_point
from handoff_reports.results import Run
from handoff_reports.variants import Variant, run_variants

NOTE = "decided on the Python recipe"


def _swapped(
    pattern: RowPattern, run: Run, recipes: list[PythonRecipe], used: list[str]
) -> RowPattern:
    """The pattern on its Python recipe's rows, where it names a C++ recipe the run has a Python
    row of at the same point; else the pattern as it is."""
    segments = pattern.segments
    if len(segments) < 2:
        return pattern
    for recipe in recipes:
        if (recipe.pattern, recipe.stands_for) != (segments[0], segments[1]):
            continue
        swapped = RowPattern(same_point(pattern.text, recipe.variant))
        if any(swapped.match(key) is not None for key in run.rows):
            used.append(f"{recipe.variant} for {recipe.stands_for}")
            return swapped
    return pattern


def _runs_alike(record: Mapping[str, Sequence[Variant]], recipe: PythonRecipe) -> bool:
    """Whether the Python recipe runs where its C++ recipe does (on the GPU for a GPU recipe): of
    two Python forms of one recipe at the same point, the one that does decides the claim (the
    CuPy form of a GPU recipe, not its NumPy form with the GPU step on the host)."""
    variants = {variant.name: variant for variant in record[recipe.pattern]}
    return variants[recipe.variant].cpu == variants[recipe.stands_for].cpu


def _rule(rule: Rule, swap: dict[RowPattern, RowPattern]) -> Rule:
    def one(pattern: RowPattern) -> RowPattern:
        return swap.get(pattern, pattern)

    if isinstance(rule, Faster):
        return replace(rule, faster=one(rule.faster), slower=one(rule.slower))
    if isinstance(rule, Fastest):
        return replace(rule, fastest=one(rule.fastest), others=tuple(map(one, rule.others)))
    assert isinstance(rule, BreakEven)
    return replace(rule, challenger=one(rule.challenger), baselines=tuple(map(one, rule.baselines)))


def on_python_recipe(run: Run, claim: Claim) -> tuple[Claim, str] | None:
    """The claim with its C++ recipe rows swapped for the run's Python recipe rows, and the note
    its verdict carries ("decided on the Python recipe (python_seed for seed)"); None where the
    claim names no C++ recipe the run has a Python row of."""
    record = run_variants(run)
    recipes = sorted(python_recipes(record), key=lambda recipe: not _runs_alike(record, recipe))
    if not recipes:
        return None
    used: list[str] = []
    swap = {pattern: _swapped(pattern, run, recipes, used) for pattern in claim.patterns}
    if not used:
        return None
    return replace(claim, rule=_rule(claim.rule, swap)), f"{NOTE} ({', '.join(used)})"

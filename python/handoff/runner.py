"""A run of Python benchmarks through handoff_bench's driver (python/src/python_run.hpp): the same
flags, sampling, counters, JSON context and exit status as handoff_bench. The results file is
--benchmark_out=PATH; one that cannot be written is ResultsNotWritten, never silently lost."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from handoff._native import native
from handoff.benchmark import Benchmark
from handoff.errors import (
    AlreadyRan,
    ArgumentsError,
    BenchmarkDefinitionError,
    ResultsNotWritten,
    RowsFailed,
)
from handoff.rows import NativeRow


@dataclass(frozen=True)
class RunOutcome:
    status: int  # handoff_bench's exit status: 0, 1 (a row failed), 2, or 128 + signal
    errors: dict[str, BaseException]  # each failed row's own exception, where it raised one


def variants_record(benchmarks: Sequence[Benchmark]) -> str:
    """The context's handoff_variants: {pattern: [{name, description, recipe, cpu, language}]}.
    The language tells the reports these rows from handoff_bench's of the same pattern, whose
    recipes are flagged `recipe` too."""
    record: dict[str, list[dict[str, object]]] = {}
    for benchmark in benchmarks:
        entries = record.setdefault(benchmark.pattern, [])
        if all(entry["name"] != benchmark.variant for entry in entries):
            entries.append(
                {
                    "name": benchmark.variant,
                    "description": benchmark.description,
                    "recipe": benchmark.recipe,
                    "cpu": benchmark.cpu,
                    "language": "python",
                }
            )
    return json.dumps(record)


def flag_value(arguments: Sequence[str], flag: str) -> str | None:
    """The last value given as FLAG=VALUE, as handoff_bench reads its flags; None if absent."""
    found = None
    for argument in arguments:
        if argument.startswith(f"{flag}="):
            found = argument[len(flag) + 1 :]
    return found


def profile_of(arguments: Sequence[str]) -> str:
    """The profile the arguments ask for (default, full or smoke), as handoff_bench reads it; a
    name it does not know is left for handoff_bench's driver to refuse."""
    if "--handoff-smoke" in arguments:
        return "smoke"
    return flag_value(arguments, "--handoff-profile") or "default"


def in_family_order(benchmarks: Sequence[Benchmark], arguments: Sequence[str]) -> list[Benchmark]:
    """The benchmarks with their families in the order --handoff-shuffle-families=SEED draws, as
    handoff_bench runs its families (a family's benchmarks stay together and in order); as
    given without it. A seed that is no number is left for the driver to refuse."""
    seed = flag_value(arguments, "--handoff-shuffle-families")
    families: dict[str, list[Benchmark]] = {}
    for benchmark in benchmarks:
        families.setdefault(benchmark.family, []).append(benchmark)
    order = list(families)
    if seed is not None and seed.isdigit() and int(seed) != 0:
        random.Random(int(seed)).shuffle(order)
    return [benchmark for family in order for benchmark in families[family]]


def rows_of(benchmarks: Sequence[Benchmark], profile: str = "full") -> list[NativeRow]:
    rows = [
        NativeRow(benchmark, point)
        for benchmark in benchmarks
        for point in benchmark.points(profile)
    ]
    seen: set[str] = set()
    for row in rows:
        if row.name in seen:
            raise BenchmarkDefinitionError(f"two rows are named {row.name}")
        seen.add(row.name)
    return rows


def run(benchmarks: Sequence[Benchmark], arguments: Sequence[str] = ()) -> RunOutcome:
    """Measures every row; arguments as handoff_bench's (--benchmark_out=PATH, --benchmark_filter,
    --handoff-profile=smoke, ...). Raises ArgumentsError, ResultsNotWritten or AlreadyRan."""
    if not benchmarks:
        raise BenchmarkDefinitionError("no benchmarks to run")
    for benchmark in benchmarks:
        if not isinstance(benchmark, Benchmark):
            raise BenchmarkDefinitionError(f"{benchmark!r} is not a handoff.Benchmark")
    # Asked of each benchmark: a variant's host form may run where its device form cannot.
    reasons = [benchmark.unavailable_reason() for benchmark in benchmarks]
    available = [b for b, reason in zip(benchmarks, reasons, strict=True) if not reason]
    rows = rows_of(in_family_order(available, arguments), profile_of(arguments))
    module = native()
    sys.stdout.flush()
    sys.stderr.flush()
    status, problem, message = module.run(
        [sys.argv[0] or "handoff", *arguments],
        [(row.name, row) for row in rows],
        variants_record(benchmarks),
        list(
            dict.fromkeys(
                (b.family, reason) for b, reason in zip(benchmarks, reasons, strict=True) if reason
            )
        ),
    )
    if problem == module.RunProblem.arguments:
        raise ArgumentsError(message)
    if problem == module.RunProblem.results_file:
        raise ResultsNotWritten(message)
    if problem == module.RunProblem.already_ran:
        raise AlreadyRan(message)
    errors = {row.name: row.error for row in rows if row.error is not None}
    return RunOutcome(int(status), errors)


def main(benchmarks: Sequence[Benchmark], argv: Sequence[str] | None = None) -> int:
    """For a script's `sys.exit(main(...))`: the run's exit status, its errors said on stderr."""
    try:
        outcome = run(benchmarks, sys.argv[1:] if argv is None else argv)
    except (ArgumentsError, ResultsNotWritten, AlreadyRan) as error:
        print(f"handoff: {type(error).__name__}: {error}", file=sys.stderr)
        return 2 if not isinstance(error, ResultsNotWritten) else 1
    for name, raised in outcome.errors.items():
        print(f"handoff: {name}: {type(raised).__name__}: {raised}", file=sys.stderr)
    return outcome.status


def run_or_raise(benchmarks: Sequence[Benchmark], arguments: Sequence[str] = ()) -> None:
    """run(), raising RowsFailed (with each row's exception) when the status is not 0."""
    outcome = run(benchmarks, arguments)
    if outcome.status != 0:
        raise RowsFailed(outcome.status, outcome.errors)

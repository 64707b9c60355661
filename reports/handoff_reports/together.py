"""Several results files reported as one run: a C++ main job and a Python recipes run, say.

Their rows sit side by side (results.merge_runs); the merged context takes each file's variants
record, so that the Python variants stay described as Python. A Python recipe row is set beside
C++ rows and may decide a claim in their place, so a file holding Python rows must have been
measured on the same machine and with the same measurement settings as every other file, as
compare requires of two runs: otherwise the report refuses, naming what differs. Files without
Python rows are combined as before (a 4-GPU run beside a 1-GPU one, say), unchecked.
"""

from __future__ import annotations

from collections.abc import Sequence

from handoff_reports.machines import describe_changes, machine_changes
from handoff_reports.results import ResultsError, Run, measurement_differences, merge_runs
from handoff_reports.variants import CONTEXT_KEY, record_text, run_variants, variants_of


class NotComparable(ResultsError):
    """Files that cannot be reported together."""


def has_python_rows(run: Run) -> bool:
    python = {(p, v.name) for p, vs in run_variants(run).items() for v in vs if v.python}
    return any((row.name.pattern, row.name.variant) in python for row in run.rows.values())


def check_comparable(runs: Sequence[Run]) -> None:
    """NotComparable when a run with Python rows and another run differ in machine or settings."""
    for python_run in (run for run in runs if has_python_rows(run)):
        for other in runs:
            if other is python_run:
                continue
            if changes := machine_changes(other.context, python_run.context):
                raise NotComparable(
                    f"NOT COMPARABLE: {other.path} and {python_run.path} were measured on "
                    f"different machines ({describe_changes(changes)}): their Python and C++ "
                    "rows cannot be set side by side"
                )
            if differences := measurement_differences(other.settings, python_run.settings):
                found = "; ".join(f"{name}: {a} -> {b}" for name, a, b in differences)
                raise NotComparable(
                    f"NOT COMPARABLE: {other.path} and {python_run.path} were measured with "
                    f"different settings ({found}): their Python and C++ rows cannot be set "
                    "side by side"
                )


def runs_together(runs: Sequence[Run]) -> Run:
    """The runs as one, checked (check_comparable), with every run's variants record."""
    check_comparable(runs)
    merged = merge_runs(list(runs))
    if record := variants_of(runs):
        merged.context[CONTEXT_KEY] = record_text(record)
    return merged

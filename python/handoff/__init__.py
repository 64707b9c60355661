"""handoff for Python: measure a hand-off written in Python with handoff_bench's own driver
(warm-up, noise-targeted sampling, poisoned outputs, seeded inputs, the `wrong` count) and get the
same Google Benchmark JSON, which `python -m handoff_reports report` and `compare` read."""

from handoff.arrays import (
    expected_vector_add,
    fill_seeded,
    poison,
    seeded,
    wrong_elements,
    wrong_reduction,
)
from handoff.benchmark import Benchmark, Floor, Point, Workspace
from handoff.errors import (
    AlreadyRan,
    ArgumentsError,
    BenchmarkDefinitionError,
    HandoffError,
    NativeModuleMissing,
    ResultsNotWritten,
    RowsFailed,
    WorkerError,
)
from handoff.runner import RunOutcome, main, run, run_or_raise

__all__ = [
    "AlreadyRan",
    "ArgumentsError",
    "Benchmark",
    "BenchmarkDefinitionError",
    "Floor",
    "HandoffError",
    "NativeModuleMissing",
    "Point",
    "ResultsNotWritten",
    "RowsFailed",
    "RunOutcome",
    "WorkerError",
    "Workspace",
    "expected_vector_add",
    "fill_seeded",
    "main",
    "poison",
    "run",
    "run_or_raise",
    "seeded",
    "wrong_elements",
    "wrong_reduction",
]

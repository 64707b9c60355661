"""The typed errors of the package: each names what was wrong and, where it can, how to fix it."""

from __future__ import annotations


class HandoffError(Exception):
    """Every error this package raises on purpose."""


class BenchmarkDefinitionError(HandoffError, ValueError):
    """A benchmark declared with a bad name, axis, value or callable; raised before any run."""


class ArgumentsError(HandoffError, ValueError):
    """A command-line flag the driver refused (an unknown flag, a bad --handoff-* value)."""


class ResultsNotWritten(HandoffError, OSError):
    """The results file could not be written: a run whose results are lost has failed."""


class AlreadyRan(HandoffError, RuntimeError):
    """A process makes one run: Google Benchmark keeps the first run's context and rows."""


class NativeModuleMissing(HandoffError, ImportError):
    """The C++ side (_handoff_native) was not found in the build folder."""


class WorkerError(HandoffError, RuntimeError):
    """A worker process raised, died or went silent past its deadline: named, never a hang."""

    def __init__(self, worker: str, how: str) -> None:
        super().__init__(f"{worker}: {how}")
        self.worker = worker
        self.how = how


class RowsFailed(HandoffError, RuntimeError):
    """Rows failed verification or raised; each row's exception, where one was raised, is kept."""

    def __init__(self, status: int, errors: dict[str, BaseException]) -> None:
        names = ", ".join(sorted(errors)) or "see the run's output"
        super().__init__(f"exit status {status}: rows failed ({names})")
        self.status = status
        self.errors = errors

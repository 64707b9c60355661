"""The host CPU that a claim's CPU rows ran on, and how fast one of its threads is: a claim that
sets a GPU way against a CPU way says as much about the host as about the GPU (one thread of a
server CPU can be twice or three times as quick as another's), so the reader is told which CPU it
was and the speed of one thread on a reference loop measured in the same run: the median of the
one-thread memcpy row (`shm_memcpy_one_thread`, plain memcpy) at its largest size, the loop the
CPU rows' streaming work is bounded by.
"""

from __future__ import annotations

from collections.abc import Iterable

from handoff_reports.results import ResultsError, Row, Run
from handoff_reports.variants import run_variants

REFERENCE_LOOP = "ceilings/shm_memcpy_one_thread/method:memcpy/"


def _reference_row(run: Run) -> Row | None:
    """The reference loop's row at its largest size, verified and measured."""
    rows = [row for key, row in run.rows.items()
            if key.startswith(REFERENCE_LOOP) and row.seconds and not row.failed]  # fmt: skip
    return max(rows, key=lambda row: row.name.size or 0, default=None)


def _size_text(size: float) -> str:
    return f"{size / 2**20:g} MiB" if size >= 2**20 else f"{size:g} bytes"


def _rate_text(bytes_per_second: float) -> str:
    return f"{bytes_per_second / 1e9:.3g} GB/s"


def host_note(run: Run) -> str:
    """'CPU rows on Intel(R) Xeon(R) Processor (16 cores); one thread copies 11.2 GB/s
    (the median of this run's one-thread memcpy row at 256 MiB)'."""
    model = str(run.context.get("handoff_cpu_model") or "an unrecorded CPU")
    cores = run.context.get("handoff_cpu_cores")
    text = f"CPU rows on {model}" + (f" ({cores} cores)" if cores else "")
    reference = _reference_row(run)
    if reference is None or not reference.name.size or not reference.median_seconds > 0:
        return text + "; no one-thread reference loop was measured in this run"
    rate = reference.name.size / reference.median_seconds
    return (
        f"{text}; one thread copies {_rate_text(rate)} "
        f"(the median of this run's one-thread memcpy row at {_size_text(reference.name.size)})"
    )


def cpu_variants(run: Run) -> set[tuple[str, str]]:
    """(pattern, variant) of every CPU way the run recorded; empty for a file without a record."""
    try:
        record = run_variants(run)
    except ResultsError:
        return set()
    return {(pattern, v.name) for pattern, variants in record.items() for v in variants if v.cpu}


def uses_a_cpu_way(keys: Iterable[str], cpu_ways: set[tuple[str, str]]) -> bool:
    """Whether any of the rows (by key) is a CPU way."""
    return any(tuple(key.split("/")[:2]) in cpu_ways for key in keys)

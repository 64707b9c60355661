"""Time, speedup and scaling efficiency against GPU count: the kernel rows (kernel_only and its
variants: the work split, nothing gathered) of one process and of one rank per GPU under mpirun
(multi_gpu_mpi) side by side, at each series' largest size and the even partitioner, where the
devices' shares are equal and the ideal is plain. A gather moves more with every GPU added, so it
has no speedup to plot."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from handoff_reports.results import Row

ONE_PROCESS = "multi_gpu"
ONE_RANK_PER_GPU = "multi_gpu_mpi"
SCALING_TARGET = 0.9  # the scaling efficiency the kernel rows aim for at 2^28 elements


@dataclass(frozen=True)
class ScalingPoint:
    gpus: int
    seconds: float
    low: float  # the interval of the median (or the repetitions' range in older files)
    high: float
    speedup: float | None  # over the one-process, one-GPU row of the same variant and scope
    row_key: str

    @property
    def efficiency(self) -> float | None:
        return self.speedup / self.gpus if self.speedup is not None else None


@dataclass
class ScalingSeries:
    pattern: str
    variant: str
    scope: str
    workload: str
    elements: int
    points: list[ScalingPoint] = field(default_factory=list)

    @property
    def launcher(self) -> str:
        return "one rank per GPU (MPI)" if self.pattern == ONE_RANK_PER_GPU else "one process"

    @property
    def label(self) -> str:
        return f"{self.variant} ({self.launcher})"


def _interval(row: Row) -> tuple[float, float]:
    if row.has_intervals:
        lows = [f.ci_low for f in row.figures if f.ci_low is not None]
        highs = [f.ci_high for f in row.figures if f.ci_high is not None]
        return min(lows), max(highs)
    return min(row.seconds), max(row.seconds)


def _integer_axis(row: Row, name: str) -> int | None:
    text = row.name.axis(name)
    return int(text) if text is not None and text.isdigit() else None


def scaling_series(rows: Sequence[Row]) -> list[ScalingSeries]:
    """Every (launcher, variant, workload, scope) series over GPU counts, at its largest size."""
    usable = [
        row
        for row in rows
        if row.name.pattern in (ONE_PROCESS, ONE_RANK_PER_GPU)
        and row.name.variant.startswith("kernel_only")
        and row.name.axis("partitioner") == "even"
        and row.seconds
        and not row.failed
        and _integer_axis(row, "gpus") is not None
        and _integer_axis(row, "elements") is not None
    ]
    grouped: dict[tuple[str, str, str, str], list[Row]] = defaultdict(list)
    for row in usable:
        identity = (row.name.pattern, row.name.variant, row.name.axis("workload") or "",
                    row.name.axis("scope") or "")  # fmt: skip
        grouped[identity].append(row)
    one_gpu = {
        (
            row.name.variant,
            row.name.axis("workload"),
            row.name.axis("scope"),
            _integer_axis(row, "elements"),
        ): row  # fmt: skip
        for row in usable
        if row.name.pattern == ONE_PROCESS and _integer_axis(row, "gpus") == 1
    }
    found: list[ScalingSeries] = []
    # The main workload first: a scope's plot draws the first series' workload.
    ordered = sorted(grouped.items(), key=lambda item: (item[0][2] != "scale_by_two", item[0]))
    for (pattern, variant, workload, scope), members in ordered:
        elements = max(_integer_axis(row, "elements") or 0 for row in members)
        series = ScalingSeries(pattern, variant, scope, workload, elements)
        baseline = one_gpu.get((variant, workload, scope, elements))
        at_size = [row for row in members if _integer_axis(row, "elements") == elements]
        for row in sorted(at_size, key=lambda r: _integer_axis(r, "gpus") or 0):
            low, high = _interval(row)
            speedup = baseline.median_seconds / row.median_seconds if baseline else None
            series.points.append(ScalingPoint(_integer_axis(row, "gpus") or 0, row.median_seconds,
                                              low, high, speedup, row.key))  # fmt: skip
        if len(series.points) >= 2 or (pattern == ONE_RANK_PER_GPU and series.points):
            found.append(series)
    return found


def by_scope(series: Sequence[ScalingSeries]) -> dict[str, list[ScalingSeries]]:
    scopes: dict[str, list[ScalingSeries]] = defaultdict(list)
    for one in series:
        scopes[one.scope].append(one)
    order = {"resident": 0, "from_host": 1, "gather": 2}
    return dict(sorted(scopes.items(), key=lambda item: (order.get(item[0], 9), item[0])))

"""A Python benchmark as the suite's driver measures it: a pattern and variant, axes swept as in
the C++ rows' names (pattern/variant/axis:value...), and four callables. setup(workspace, point)
builds the case once per row, untimed, taking its inputs and outputs from the workspace so that
inputs are seeded and outputs are poisoned before every timed run; run(case) is the timed hand-off
(by the wall clock, or by CUDA events on the case's stream where `stream` is given); verify(case)
returns how many elements of the last run are wrong; close(case), when given, ends what setup
started (workers, shared memory)."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from handoff import arrays
from handoff.arrays import Floats
from handoff.errors import BenchmarkDefinitionError

Point = Mapping[str, int | str]
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Floor:
    """The least a hand-off can take on this machine, as the C++ rows' floors: `bytes` moved at
    each named ceiling's rate and `events` at each latency ceiling's, summed. The names are
    handoff_bench's ceilings (pipe_between_processes, shm_memcpy_one_thread, pcie_h2d_pinned,
    kernel_launch_sync, ...); they are priced against an earlier run of this machine, given by
    --handoff-ceilings-from=FILE, as a filtered C++ run's are."""

    bytes: Mapping[str, float] = field(default_factory=dict)
    events: Mapping[str, float] = field(default_factory=dict)

    def counters(self) -> list[tuple[str, float]]:
        """The row's floor_bytes.NAME and floor_events.NAME counters."""
        found = []
        for kind, terms in (("bytes", self.bytes), ("events", self.events)):
            for name, amount in terms.items():
                if not isinstance(name, str) or not _NAME.match(name):
                    raise BenchmarkDefinitionError(f"floor: {name!r} is not a ceiling's name")
                if isinstance(amount, bool) or not isinstance(amount, int | float):
                    raise BenchmarkDefinitionError(f"floor: {name}: {amount!r} is no number")
                if not math.isfinite(amount) or amount < 0:
                    raise BenchmarkDefinitionError(f"floor: {name}: {amount} is not >= 0")
                found.append((f"floor_{kind}.{name}", float(amount)))
        return found


class Workspace:
    """A row's buffers: seeded inputs, and outputs the driver poisons before every run."""

    def __init__(self) -> None:
        self._outputs: list[Floats] = []
        self._poisoners: list[Callable[[], None]] = []

    def inputs(self, count: int, seed: int, first_index: int = 0) -> Floats:
        return arrays.seeded(count, seed, first_index)

    def output(self, count: int) -> Floats:
        values = np.empty(count, dtype=np.float32)
        arrays.poison(values)
        self._outputs.append(values)
        return values

    def also_poison(self, poisoner: Callable[[], None]) -> None:
        """Calls poisoner with the outputs' poisoning, untimed before every run: for an output
        that is not a NumPy array of this workspace (a device tensor)."""
        self._poisoners.append(poisoner)

    def poison_outputs(self) -> None:
        for values in self._outputs:
            arrays.poison(values)
        for poisoner in self._poisoners:
            poisoner()

    @property
    def output_elements(self) -> int:
        return sum(values.size for values in self._outputs)


@dataclass(frozen=True)
class Benchmark:
    pattern: str
    variant: str
    description: str
    setup: Callable[[Workspace, Point], Any]
    run: Callable[[Any], None]
    verify: Callable[[Any], int]
    axes: Mapping[str, Sequence[int | str]] = field(default_factory=dict)
    close: Callable[[Any], None] | None = None
    # Bytes and items one hand-off moves at a point, for the rows' bytes_per_second.
    traffic: Callable[[Point], tuple[float, float]] | None = None
    recipe: bool = False  # the article's own code
    cpu: bool = True  # runs without a GPU
    # The CUDA stream run(case) enqueues its work on, as an int (PyTorch: a stream's cuda_stream;
    # CuPy: a stream's ptr): each run is then timed by CUDA events recorded on it around run(),
    # which must only enqueue; without it, by the wall clock.
    stream: Callable[[Any], int] | None = None
    # The floor at a point, priced against this machine's ceilings (Floor).
    floor: Callable[[Point], Floor] | None = None
    # Why this machine cannot run the benchmark (no GPU, a library missing), or "" when it can:
    # asked once before the run; a benchmark with a reason is skipped and the reason reported,
    # as handoff_bench reports the families it skips.
    unavailable: Callable[[], str] | None = None
    # The points the default profile (the main job) measures, a subset of axes; None: all of
    # them. A row costs its workers' start in every process of the run, so the main job keeps the
    # points the report sets beside the C++ rows and --handoff-profile=full measures the rest.
    default_axes: Mapping[str, Sequence[int | str]] | None = None
    # Measured by --handoff-profile=full (and the smoke run) only: a point of a sweep beyond
    # the main job's, where a benchmark is one point.
    sweep_only: bool = False

    def __post_init__(self) -> None:
        for what, name in (("pattern", self.pattern), ("variant", self.variant)):
            if not isinstance(name, str) or not _NAME.match(name):
                raise BenchmarkDefinitionError(
                    f"{what} {name!r}: lower-case letters, digits and _, starting with a letter"
                )
        if not self.description:
            raise BenchmarkDefinitionError(f"{self.pattern}/{self.variant}: needs a description")
        for axis, values in self.axes.items():
            if not isinstance(axis, str) or not _NAME.match(axis):
                raise BenchmarkDefinitionError(f"{self.pattern}/{self.variant}: axis {axis!r}")
            if isinstance(values, str) or not values:
                raise BenchmarkDefinitionError(f"axis {axis}: a non-empty list of values")
            for value in values:
                if isinstance(value, bool) or not isinstance(value, int | str):
                    raise BenchmarkDefinitionError(f"axis {axis}: {value!r} is no int or str")
                if isinstance(value, str) and ("/" in value or not value):
                    raise BenchmarkDefinitionError(f"axis {axis}: {value!r} (empty, or has '/')")
        self._check_default_axes()
        if self.stream is not None and not callable(self.stream):
            raise BenchmarkDefinitionError(f"{self.pattern}/{self.variant}: stream not callable")
        if self.floor is not None and not callable(self.floor):
            raise BenchmarkDefinitionError(f"{self.pattern}/{self.variant}: floor not callable")
        if self.unavailable is not None and not callable(self.unavailable):
            raise BenchmarkDefinitionError(
                f"{self.pattern}/{self.variant}: unavailable not callable"
            )
        for name in ("setup", "run", "verify"):
            if not callable(getattr(self, name)):
                raise BenchmarkDefinitionError(
                    f"{self.pattern}/{self.variant}: {name} not callable"
                )

    def _check_default_axes(self) -> None:
        if self.default_axes is None:
            return
        if list(self.default_axes) != list(self.axes):
            raise BenchmarkDefinitionError(
                f"{self.pattern}/{self.variant}: default_axes must name the axes, in their order"
            )
        for axis, values in self.default_axes.items():
            if isinstance(values, str) or not values or not set(values) <= set(self.axes[axis]):
                raise BenchmarkDefinitionError(
                    f"{self.pattern}/{self.variant}: default_axes {axis}: a non-empty subset of "
                    f"its values {list(self.axes[axis])}, not {values!r}"
                )

    @property
    def family(self) -> str:
        return f"{self.pattern}/{self.variant}"

    def unavailable_reason(self) -> str:
        """Why this machine cannot run it, or "" when it can."""
        if self.unavailable is None:
            return ""
        reason = self.unavailable()
        if not isinstance(reason, str):
            raise BenchmarkDefinitionError(f"{self.family}: unavailable() must return a str")
        return reason

    def points(self, profile: str = "full") -> Iterator[dict[str, int | str]]:
        """The points a profile measures: "default" (the main job's) or every one of axes."""
        if profile == "default" and self.sweep_only:
            return
        axes = self.axes
        if profile == "default" and self.default_axes is not None:
            axes = self.default_axes
        names = list(axes)
        for values in itertools.product(*(axes[name] for name in names)):
            yield dict(zip(names, values, strict=True))

    def row_name(self, point: Point) -> str:
        """As bench/harness/registration.hpp's benchmark_name: pattern/variant/axis:value..."""
        return "/".join([self.pattern, self.variant, *(f"{k}:{v}" for k, v in point.items())])

"""One benchmark at one point, as the C++ driver calls it (python/src/python_row.hpp): setup,
poison and run per sample, stream, verify, traffic, floor_counters and close. It keeps the first
exception it met, so a run can hand the caller the typed error a row raised, beside the row's
failure in the JSON."""

from __future__ import annotations

import numbers
from typing import Any

from handoff.benchmark import Benchmark, Floor, Point, Workspace
from handoff.errors import BenchmarkDefinitionError


class NativeRow:
    def __init__(self, benchmark: Benchmark, point: Point) -> None:
        self.benchmark = benchmark
        self.point = point
        self.name = benchmark.row_name(point)
        self.error: BaseException | None = None
        self._workspace = Workspace()
        self._case: Any = None
        self._open = False

    def _note(self, error: BaseException) -> None:
        if self.error is None:
            self.error = error

    def setup(self) -> None:
        try:
            self._case = self.benchmark.setup(self._workspace, self.point)
            self._open = True
        except BaseException as error:
            self._note(error)
            raise

    def poison(self) -> None:
        try:
            self._workspace.poison_outputs()
        except BaseException as error:  # a poisoner of the case's own (Workspace.also_poison)
            self._note(error)
            raise

    def run(self) -> None:
        try:
            self.benchmark.run(self._case)
        except BaseException as error:
            self._note(error)
            raise

    def verify(self) -> tuple[int, int]:
        try:
            wrong = self.benchmark.verify(self._case)
            if isinstance(wrong, bool) or not isinstance(wrong, numbers.Integral) or wrong < 0:
                raise TypeError(f"{self.name}: verify returned {wrong!r}, not a count >= 0")
            checked = max(self._workspace.output_elements, int(wrong), 1)
            return checked, int(wrong)
        except BaseException as error:
            self._note(error)
            raise

    def traffic(self) -> tuple[float, float]:
        if self.benchmark.traffic is None:
            return 0.0, 0.0
        bytes_moved, items = self.benchmark.traffic(self.point)
        return float(bytes_moved), float(items)

    def stream(self) -> int | None:
        """The CUDA stream to time the runs on (after setup), or None for the wall clock."""
        if self.benchmark.stream is None:
            return None
        handle = self.benchmark.stream(self._case)
        if isinstance(handle, bool) or not isinstance(handle, numbers.Integral) or handle < 0:
            raise TypeError(f"{self.name}: stream returned {handle!r}, not a stream handle")
        return int(handle)

    def floor_counters(self) -> list[tuple[str, float]]:
        if self.benchmark.floor is None:
            return []
        floor = self.benchmark.floor(self.point)
        if not isinstance(floor, Floor):
            raise BenchmarkDefinitionError(f"{self.name}: floor returned {floor!r}, not a Floor")
        return floor.counters()

    def close(self) -> None:
        if not self._open:
            return
        self._open = False
        if self.benchmark.close is not None:
            try:
                self.benchmark.close(self._case)
            except BaseException as error:
                self._note(error)
                raise
        self._case = None

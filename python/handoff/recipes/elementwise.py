"""Article 002's element-wise work, as the C++ rows' (patterns/src/elementwise/extended_table.cpp):
square (y = x * x), neg_b_over_a (x = -b / a) and affine (Y = W X + b, n x n, b a column
broadcast across Y's columns), over the C++ rows' seeded inputs, with their oracles and
tolerances: the element-wise results exact (one correctly rounded float operation, computed in
double and rounded once, within the suite's 1 ulp), the GEMM within the worst-case rounding bound
2 n 2^-24 sum_k |W_ik| |X_kj| + 2^-23 |b_i| of a double-precision reference
(reference/verify_affine.hpp). The points are the C++ rows' (extended_sweep.cpp)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from handoff import arrays
from handoff.arrays import Floats
from handoff.benchmark import Point

# extended_table.cpp's seeds: W, x and a are "first", X and b (of -b / a) "second".
SEED_FIRST = 0x5EED002A
SEED_SECOND = 0x5EED002B
SEED_BIAS = 0x5EED002C

WORKLOADS = ("square", "neg_b_over_a", "affine")
_UNIT_ROUNDOFF = 2.0**-24
_EPSILON = 2.0**-23
_GAMMA_FACTOR = 2.0
Doubles = npt.NDArray[np.float64]


def size_axis(workload: str) -> str:
    return "n" if workload == "affine" else "elements"


def sizes(workload: str, smoke: bool) -> list[int | str]:
    """The C++ GPU rows' sizes in the default profile (2^10, 2^16, 2^20; n = 64 and 1000), and
    the smoke run's sizes that divide by nothing the kernels like (1027; n = 37)."""
    if workload == "affine":
        return [37] if smoke else [64, 1000]
    return [1027] if smoke else [1 << 10, 1 << 16, 1 << 20]


def pool_sizes(workload: str, smoke: bool) -> list[int | str]:
    """The sizes within the C++ cpu_map's cap (2^14 elements, n <= 256): one message per
    element costs a round trip each."""
    cap = 256 if workload == "affine" else 1 << 14
    return [size for size in sizes(workload, smoke) if int(size) <= cap]


@dataclass(frozen=True)
class Problem:
    workload: str
    size: int  # elements, or the order n of affine
    first: Floats  # x, a, or W (row-major n x n)
    second: Floats | None = None  # b of -b / a, or X (row-major n x n)
    bias: Floats | None = None  # affine's b, n values
    expected: Floats | None = None  # the element-wise oracle
    reference: Doubles | None = None  # affine's W X + b in double precision
    tolerance: Doubles | None = None  # affine's bound per element

    @property
    def output_count(self) -> int:
        return self.size * self.size if self.workload == "affine" else self.size

    def wrong(self, actual: Floats) -> int:
        """How many elements of actual the oracle rejects (NaN always is rejected)."""
        if self.expected is not None:
            return arrays.wrong_elements(self.expected, actual)
        assert self.reference is not None and self.tolerance is not None
        if actual.size != self.reference.size:
            return max(actual.size, self.reference.size)
        error = np.abs(actual.astype(np.float64) - self.reference)
        # Written so that NaN fails: every comparison with NaN is false.
        return int(np.count_nonzero(~(error <= self.tolerance)))


def problem(point: Point) -> Problem:
    """The workload's seeded inputs at the point, with its oracle."""
    workload = str(point["workload"])
    size = int(point[size_axis(workload)])
    if workload == "square":
        x = arrays.seeded(size, SEED_FIRST)
        expected = np.square(x.astype(np.float64)).astype(np.float32)
        return Problem(workload, size, x, expected=expected)
    if workload == "neg_b_over_a":
        a, b = arrays.seeded(size, SEED_FIRST), arrays.seeded(size, SEED_SECOND)
        expected = (-b.astype(np.float64) / a.astype(np.float64)).astype(np.float32)
        return Problem(workload, size, a, b, expected=expected)
    if workload != "affine":
        raise ValueError(f"elementwise: no workload {workload!r}")
    w = arrays.seeded(size * size, SEED_FIRST)
    x = arrays.seeded(size * size, SEED_SECOND)
    bias = arrays.seeded(size, SEED_BIAS)
    w64, x64 = w.astype(np.float64).reshape(size, size), x.astype(np.float64).reshape(size, size)
    bias64 = bias.astype(np.float64)[:, np.newaxis]
    reference = np.asarray(w64 @ x64 + bias64, dtype=np.float64).reshape(-1)
    magnitude = np.abs(w64) @ np.abs(x64)
    tolerance = np.asarray(
        _GAMMA_FACTOR * size * _UNIT_ROUNDOFF * magnitude + _EPSILON * np.abs(bias64),
        dtype=np.float64,
    )
    return Problem(workload, size, w, x, bias, reference=reference, tolerance=tolerance.reshape(-1))


def traffic(point: Point) -> tuple[float, float]:
    """As extended_table.cpp's extended_bytes and extended_elements: the bytes read and written
    by one run, and the output's elements."""
    workload = str(point["workload"])
    size = float(point[size_axis(workload)])
    if workload == "affine":
        return 4.0 * (3.0 * size * size + size), size * size
    inputs = 1.0 if workload == "square" else 2.0
    return 4.0 * (inputs + 1.0) * size, size

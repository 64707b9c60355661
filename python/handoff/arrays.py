"""The suite's inputs, poison and verification policy for NumPy arrays, from its C++
(reference/): seeded inputs that are never zero, outputs poisoned with NaN before each run, and
elementwise results within 1 ulp, reductions within a relative 1e-5."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from handoff._native import native
from handoff.errors import BenchmarkDefinitionError

Floats = npt.NDArray[np.float32]


def _checked(values: Floats, what: str) -> Floats:
    if not isinstance(values, np.ndarray) or values.dtype != np.float32:
        raise TypeError(f"{what}: a float32 NumPy array, not {type(values).__name__}")
    if not values.flags.c_contiguous:
        raise TypeError(f"{what}: a contiguous array (np.ascontiguousarray makes one)")
    return values.reshape(-1)


def seeded(count: int, seed: int, first_index: int = 0) -> Floats:
    """count float32 values, each ±[0.5, 2), drawn from (seed, first_index + i) as the C++ rows'."""
    if count < 0 or seed < 0 or first_index < 0:
        raise BenchmarkDefinitionError(f"seeded({count}, {seed}, {first_index}): all must be >= 0")
    values = np.empty(count, dtype=np.float32)
    native().fill_seeded(values, seed, first_index)
    return values


def fill_seeded(values: Floats, seed: int, first_index: int = 0) -> None:
    native().fill_seeded(_checked(values, "fill_seeded"), seed, first_index)


def poison(values: Floats) -> None:
    """Every byte 0xFF: NaN, which no verification accepts."""
    native().poison(_checked(values, "poison"))


def wrong_elements(expected: Floats, actual: Floats, max_ulp: int = 1) -> int:
    """How many elements of actual are further than max_ulp from expected (NaN always is)."""
    expected, actual = _checked(expected, "expected"), _checked(actual, "actual")
    if expected.shape != actual.shape:
        return max(expected.size, actual.size)
    _, wrong, _ = native().verify_elementwise(expected, actual, max_ulp)
    return int(wrong)


def wrong_reduction(expected: float, actual: float) -> int:
    """1 when actual is not within a relative 1e-5 of expected, else 0."""
    _, wrong, _ = native().verify_reduction(float(expected), float(actual))
    return int(wrong)


def expected_vector_add(total: int, seed_a: int, seed_b: int) -> Floats:
    """The C++ oracle of a + b over seeded inputs of total elements, computed in one piece."""
    result: Floats = native().expected_vector_add(total, seed_a, seed_b)
    return result

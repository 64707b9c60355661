import numpy as np
import pytest

import handoff


def test_seeded_inputs_are_never_zero_and_repeat():
    values = handoff.seeded(100_000, 7)
    assert values.dtype == np.float32
    assert np.all(np.abs(values) >= 0.5) and np.all(np.abs(values) < 2.0)
    np.testing.assert_array_equal(values, handoff.seeded(100_000, 7))
    assert not np.array_equal(values, handoff.seeded(100_000, 8))
    # A piece drawn from its global index is the same piece of the whole.
    np.testing.assert_array_equal(values[500:600], handoff.seeded(100, 7, first_index=500))


def test_poisoned_output_is_nan_and_always_wrong():
    out = np.ones(10, dtype=np.float32)
    handoff.poison(out)
    assert np.all(np.isnan(out))
    assert handoff.wrong_elements(np.ones(10, dtype=np.float32), out) == 10


def test_wrong_elements_counts_beyond_one_ulp():
    expected = handoff.seeded(1000, 3)
    actual = expected.copy()
    assert handoff.wrong_elements(expected, actual) == 0
    actual[10] = np.nextafter(actual[10], np.float32(np.inf))
    assert handoff.wrong_elements(expected, actual) == 0
    actual[11] += 1.0
    assert handoff.wrong_elements(expected, actual) == 1
    assert handoff.wrong_elements(expected, actual[:5].copy()) == 1000


def test_oracle_is_the_sum_of_the_seeded_inputs():
    expected = handoff.expected_vector_add(4099, 1, 2)
    np.testing.assert_array_equal(expected, handoff.seeded(4099, 1) + handoff.seeded(4099, 2))


def test_reduction_within_relative_tolerance():
    assert handoff.wrong_reduction(1.0, 1.0 + 1e-7) == 0
    assert handoff.wrong_reduction(1.0, 1.001) == 1


def test_arrays_of_the_wrong_type_are_type_errors():
    with pytest.raises(TypeError, match="float32"):
        handoff.poison(np.ones(3, dtype=np.float64))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="contiguous"):
        handoff.poison(np.ones(6, dtype=np.float32)[::2])
    with pytest.raises(handoff.BenchmarkDefinitionError):
        handoff.seeded(-1, 0)

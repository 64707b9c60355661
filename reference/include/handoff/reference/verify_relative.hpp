#pragma once
// Verification for results that accumulate rounding, such as the float iterates of an iterative
// solver set against a double-precision oracle: every element must lie within
// relative * max_j |expected[j]| of its expected value. Scaling by the largest magnitude, not by
// each element's own, keeps elements that pass near zero from failing on rounding alone, while an
// error of a fraction of the solution's size still fails. NaN never passes.

#include <span>

#include "handoff/reference/verify.hpp"

namespace handoff::reference {

// std::invalid_argument when the lengths differ, or when relative is negative or not finite.
verification_result verify_within_relative(std::span<const double> expected,
                                           std::span<const float> actual, double relative);

}  // namespace handoff::reference

#pragma once
// The oracle for sums of floats: every value widened to double and added with Neumaier's
// compensation, so the reference stays accurate to a few double ulps of the sum even where
// positive and negative inputs cancel. Reductions are verified against it to a relative 1e-5.

#include <span>

namespace handoff::reference {

double compensated_sum(std::span<const float> values) noexcept;

}  // namespace handoff::reference

#pragma once
// The oracle for independent_tasks: the sum of x*x over each dataset, in double precision, and the
// check of one float result per dataset against it. Every dataset is one verify_reduction (relative
// 1e-5); the mismatches of all datasets add up into one verification_result, whose first mismatch
// names the dataset.

#include <span>
#include <vector>

#include "handoff/reference/verify.hpp"

namespace handoff::reference {

double sum_of_squares(std::span<const float> values) noexcept;

std::vector<double> sums_of_squares(std::span<const std::span<const float>> datasets);

// One result per dataset; a length that differs from expected's is std::invalid_argument.
verification_result verify_reductions(std::span<const double> expected,
                                      std::span<const float> actual,
                                      double relative_tolerance = reduction_relative_tolerance);

}  // namespace handoff::reference

#include "handoff/reference/sum_of_squares.hpp"

#include <stdexcept>
#include <string>

namespace handoff::reference {

double sum_of_squares(std::span<const float> values) noexcept {
  double sum = 0.0;
  for (const float value : values) {
    const double wide = value;
    sum += wide * wide;
  }
  return sum;
}

std::vector<double> sums_of_squares(std::span<const std::span<const float>> datasets) {
  std::vector<double> sums;
  sums.reserve(datasets.size());
  for (const auto dataset : datasets)
    sums.push_back(sum_of_squares(dataset));
  return sums;
}

verification_result verify_reductions(std::span<const double> expected,
                                      std::span<const float> actual, double relative_tolerance) {
  if (expected.size() != actual.size()) {
    throw std::invalid_argument("verify_reductions: " + std::to_string(expected.size()) +
                                " expected results, got " + std::to_string(actual.size()));
  }
  verification_result total;
  for (std::size_t index = 0; index < expected.size(); ++index) {
    const auto one = verify_reduction(expected[index], actual[index], relative_tolerance);
    total.checked += one.checked;
    total.mismatches += one.mismatches;
    if (one.first && !total.first)
      total.first = first_mismatch{index, expected[index], actual[index]};
  }
  return total;
}

}  // namespace handoff::reference

#include "handoff/reference/verify_relative.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace handoff::reference {

verification_result verify_within_relative(std::span<const double> expected,
                                           std::span<const float> actual, double relative) {
  if (expected.size() != actual.size()) {
    throw std::invalid_argument("verify_within_relative: expected " +
                                std::to_string(expected.size()) + " elements, got " +
                                std::to_string(actual.size()));
  }
  if (!std::isfinite(relative) || relative < 0.0) {
    throw std::invalid_argument("verify_within_relative: the tolerance must be finite and >= 0");
  }
  double scale = 0.0;
  for (const double value : expected)
    scale = std::max(scale, std::abs(value));
  const double bound = relative * scale;
  verification_result result;
  result.checked = expected.size();
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double error = std::abs(static_cast<double>(actual[i]) - expected[i]);
    if (!(error <= bound)) {  // also false for NaN
      if (result.mismatches++ == 0) result.first = first_mismatch{i, expected[i], actual[i]};
    }
  }
  return result;
}

}  // namespace handoff::reference

#include "handoff/reference/compensated_sum.hpp"

#include <cmath>

namespace handoff::reference {

double compensated_sum(std::span<const float> values) noexcept {
  double sum = 0.0;
  double compensation = 0.0;  // the low-order bits each addition lost
  for (const float value : values) {
    const double addend = value;
    const double total = sum + addend;
    compensation +=
        std::abs(sum) >= std::abs(addend) ? (sum - total) + addend : (addend - total) + sum;
    sum = total;
  }
  return sum + compensation;
}

}  // namespace handoff::reference

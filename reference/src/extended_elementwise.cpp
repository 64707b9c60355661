#include "handoff/reference/extended_elementwise.hpp"

#include <stdexcept>
#include <string>

namespace handoff::reference {
namespace {

void require_same_size(const char* what, std::size_t first, std::size_t second) {
  if (first != second) {
    throw std::invalid_argument(std::string(what) + ": sizes differ (" + std::to_string(first) +
                                " and " + std::to_string(second) + ")");
  }
}

}  // namespace

void square(std::span<const float> x, std::span<float> out) {
  require_same_size("reference::square", x.size(), out.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double value = x[i];
    out[i] = static_cast<float>(value * value);
  }
}

void neg_b_over_a(std::span<const float> a, std::span<const float> b, std::span<float> out) {
  require_same_size("reference::neg_b_over_a", a.size(), b.size());
  require_same_size("reference::neg_b_over_a", a.size(), out.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    out[i] = static_cast<float>(-static_cast<double>(b[i]) / static_cast<double>(a[i]));
  }
}

}  // namespace handoff::reference

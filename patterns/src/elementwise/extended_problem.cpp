#include "handoff/patterns/elementwise/extended_problem.hpp"

#include <stdexcept>
#include <string>

namespace handoff::patterns::elementwise {
namespace {

void require_size(const char* what, std::size_t got, std::size_t expected) {
  if (got != expected) {
    throw std::invalid_argument(std::string("affine: ") + what + " has " + std::to_string(got) +
                                " values, expected " + std::to_string(expected));
  }
}

}  // namespace

std::string_view workload_name(extended_workload workload) noexcept {
  switch (workload) {
    case extended_workload::square:
      return "square";
    case extended_workload::neg_b_over_a:
      return "neg_b_over_a";
    case extended_workload::affine:
      return "affine";
  }
  return "unknown";
}

extended_problem::extended_problem(extended_workload workload,
                                   std::vector<std::span<const float>> inputs, std::size_t order,
                                   std::size_t output_count)
    : workload_(workload), inputs_(std::move(inputs)), order_(order), output_count_(output_count) {}

extended_problem extended_problem::square(std::span<const float> x) {
  return extended_problem(extended_workload::square, {x}, 0, x.size());
}

extended_problem extended_problem::neg_b_over_a(std::span<const float> a,
                                                std::span<const float> b) {
  if (a.size() != b.size()) {
    throw std::invalid_argument("neg_b_over_a: a has " + std::to_string(a.size()) +
                                " elements but b has " + std::to_string(b.size()));
  }
  return extended_problem(extended_workload::neg_b_over_a, {a, b}, 0, a.size());
}

extended_problem extended_problem::affine(std::size_t n, std::span<const float> w,
                                          std::span<const float> x, std::span<const float> bias) {
  if (n == 0) throw std::invalid_argument("affine: the matrix order n must be at least 1");
  if (n > max_affine_order) {
    throw std::invalid_argument("affine: n = " + std::to_string(n) + " exceeds the cap of " +
                                std::to_string(max_affine_order));
  }
  require_size("W", w.size(), n * n);
  require_size("X", x.size(), n * n);
  require_size("b", bias.size(), n);
  return extended_problem(extended_workload::affine, {w, x, bias}, n, n * n);
}

std::size_t extended_problem::input_bytes() const noexcept {
  std::size_t bytes = 0;
  for (const auto input : inputs_)
    bytes += input.size_bytes();
  return bytes;
}

}  // namespace handoff::patterns::elementwise

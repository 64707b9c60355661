#pragma once
// Seed 002's three workloads as one checked problem, the input every extended elementwise variant
// takes:
//   square        y = x * x                      (compute(task) = task ** 2)
//   neg_b_over_a  x = -b / a                     (solve_linear_equation, without the sleep)
//   affine        Y = W X + b                    (W and X square n x n, row-major; b a column of
//                                                 n values broadcast across Y's columns)
// The spans are borrowed: the caller's data must outlive the problem and the variants built on it.

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace handoff::patterns::elementwise {

enum class extended_workload { square, neg_b_over_a, affine };

std::string_view workload_name(extended_workload workload) noexcept;

class extended_problem {
 public:
  static extended_problem square(std::span<const float> x);
  // a and b of different lengths are std::invalid_argument.
  static extended_problem neg_b_over_a(std::span<const float> a, std::span<const float> b);
  // n * n must not wrap, nor exceed what cuBLAS's int dimensions and a grid's rows can address.
  static constexpr std::size_t max_affine_order = std::size_t{1} << 15;
  // n = 0 or over max_affine_order, or W, X, b not holding n * n, n * n, n values, is
  // std::invalid_argument.
  static extended_problem affine(std::size_t n, std::span<const float> w, std::span<const float> x,
                                 std::span<const float> bias);

  extended_workload workload() const noexcept { return workload_; }
  // The inputs in their order: {x}, {a, b} or {W, X, b}.
  std::span<const std::span<const float>> inputs() const noexcept { return inputs_; }
  std::span<const float> input(std::size_t index) const { return inputs_.at(index); }
  std::size_t order() const noexcept { return order_; }  // n for affine, 0 otherwise
  std::size_t output_count() const noexcept { return output_count_; }
  std::size_t input_bytes() const noexcept;
  std::size_t output_bytes() const noexcept { return output_count_ * sizeof(float); }

 private:
  extended_problem(extended_workload workload, std::vector<std::span<const float>> inputs,
                   std::size_t order, std::size_t output_count);

  extended_workload workload_;
  std::vector<std::span<const float>> inputs_;
  std::size_t order_ = 0;
  std::size_t output_count_ = 0;
};

}  // namespace handoff::patterns::elementwise

#pragma once
// The arithmetic the CPU variants and the map workers share. Every element of the affine result is
// summed over k in order 0, 1, ..., n - 1 in float and the bias is added last, the order the
// affine tolerance (handoff/reference/verify_affine.hpp) is derived for.

#include <cstddef>
#include <span>

#include "handoff/patterns/elementwise/extended_problem.hpp"

namespace handoff::patterns::elementwise::cpu_math {

inline float square(float x) noexcept {
  return x * x;
}

inline float neg_b_over_a(float a, float b) noexcept {
  return -(b / a);
}

// out[begin, end) of square or neg_b_over_a.
void elementwise_range(const extended_problem& problem, std::span<float> out, std::size_t begin,
                       std::size_t end);

// Rows [row_begin, row_end) of Y = W X + b, n x n row-major: a loop blocked over k and j so a
// tile of X stays in cache while every row of the range uses it.
void affine_rows(std::size_t n, const float* w, const float* x, const float* bias, float* y,
                 std::size_t row_begin, std::size_t row_end);

// One column of Y: y_column[i] = sum_k W_ik x_column[k] + b_i, the map workers' task.
void affine_column(std::size_t n, std::span<const float> w, std::span<const float> x_column,
                   std::span<const float> bias, std::span<float> y_column);

}  // namespace handoff::patterns::elementwise::cpu_math

#include "extended_cpu_math.hpp"

#include <algorithm>

namespace handoff::patterns::elementwise::cpu_math {
namespace {

// A 128 x 512 tile of X is 256 KiB: it fits a core's L2 while every row of the range reuses it.
constexpr std::size_t k_block = 128;
constexpr std::size_t j_block = 512;

}  // namespace

void elementwise_range(const extended_problem& problem, std::span<float> out, std::size_t begin,
                       std::size_t end) {
  if (problem.workload() == extended_workload::square) {
    const auto x = problem.input(0);
    for (std::size_t i = begin; i < end; ++i)
      out[i] = square(x[i]);
  } else {
    const auto a = problem.input(0);
    const auto b = problem.input(1);
    for (std::size_t i = begin; i < end; ++i)
      out[i] = neg_b_over_a(a[i], b[i]);
  }
}

void affine_rows(std::size_t n, const float* w, const float* x, const float* bias, float* y,
                 std::size_t row_begin, std::size_t row_end) {
  for (std::size_t j_begin = 0; j_begin < n; j_begin += j_block) {
    const std::size_t j_end = std::min(n, j_begin + j_block);
    for (std::size_t i = row_begin; i < row_end; ++i)
      std::fill(y + i * n + j_begin, y + i * n + j_end, 0.0f);
    for (std::size_t k_begin = 0; k_begin < n; k_begin += k_block) {
      const std::size_t k_end = std::min(n, k_begin + k_block);
      for (std::size_t i = row_begin; i < row_end; ++i) {
        float* y_row = y + i * n;
        for (std::size_t k = k_begin; k < k_end; ++k) {
          const float weight = w[i * n + k];
          const float* x_row = x + k * n;
          for (std::size_t j = j_begin; j < j_end; ++j)
            y_row[j] += weight * x_row[j];
        }
      }
    }
  }
  for (std::size_t i = row_begin; i < row_end; ++i) {
    float* y_row = y + i * n;
    for (std::size_t j = 0; j < n; ++j)
      y_row[j] += bias[i];
  }
}

void affine_column(std::size_t n, std::span<const float> w, std::span<const float> x_column,
                   std::span<const float> bias, std::span<float> y_column) {
  for (std::size_t i = 0; i < n; ++i) {
    float sum = 0.0f;
    const float* w_row = w.data() + i * n;
    for (std::size_t k = 0; k < n; ++k)
      sum += w_row[k] * x_column[k];
    y_column[i] = sum + bias[i];
  }
}

}  // namespace handoff::patterns::elementwise::cpu_math

#include "handoff/reference/verify_affine.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "handoff/reference/parallel_for.hpp"

namespace handoff::reference {
namespace {

void require_size(const char* what, std::size_t got, std::size_t expected) {
  if (got != expected) {
    throw std::invalid_argument(std::string("affine reference: ") + what + " has " +
                                std::to_string(got) + " values, expected " +
                                std::to_string(expected));
  }
}

}  // namespace

double affine_oracle::tolerance(std::size_t index, double gamma_factor) const {
  const double gamma = gamma_factor * static_cast<double>(n) * float_unit_roundoff;
  return gamma * magnitude[index] + float_epsilon * bias_magnitude[index / n];
}

affine_oracle affine_reference(std::size_t n, std::span<const float> w, std::span<const float> x,
                               std::span<const float> bias) {
  require_size("W", w.size(), n * n);
  require_size("X", x.size(), n * n);
  require_size("b", bias.size(), n);
  affine_oracle oracle;
  oracle.n = n;
  oracle.y.assign(n * n, 0.0);
  oracle.magnitude.assign(n * n, 0.0);
  oracle.bias_magnitude.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    oracle.bias_magnitude[i] = std::abs(static_cast<double>(bias[i]));
  // X in double once, and its magnitudes, so the inner loop is plain double arithmetic over
  // contiguous rows (row i of Y accumulates row k of X scaled by W_ik).
  std::vector<double> x_value(x.begin(), x.end());
  std::vector<double> x_magnitude(n * n);
  std::ranges::transform(x_value, x_magnitude.begin(), [](double v) { return std::abs(v); });
  const std::size_t rows_per_thread = std::max<std::size_t>(1, parallel_grain / (n * n + 1));
  parallel_for(
      n,
      [&](std::size_t row_begin, std::size_t row_end) {
        for (std::size_t i = row_begin; i < row_end; ++i) {
          double* y_row = oracle.y.data() + i * n;
          double* magnitude_row = oracle.magnitude.data() + i * n;
          for (std::size_t k = 0; k < n; ++k) {
            const double weight = w[i * n + k];
            const double weight_magnitude = std::abs(weight);
            const double* x_row = x_value.data() + k * n;
            const double* x_magnitude_row = x_magnitude.data() + k * n;
            for (std::size_t j = 0; j < n; ++j) {
              y_row[j] += weight * x_row[j];
              magnitude_row[j] += weight_magnitude * x_magnitude_row[j];
            }
          }
          for (std::size_t j = 0; j < n; ++j)
            y_row[j] += bias[i];
        }
      },
      default_thread_count(), rows_per_thread);
  return oracle;
}

verification_result verify_affine(const affine_oracle& oracle, std::span<const float> actual,
                                  double gamma_factor) {
  if (actual.size() != oracle.y.size()) {
    throw std::invalid_argument("verify_affine: expected " + std::to_string(oracle.y.size()) +
                                " elements, got " + std::to_string(actual.size()));
  }
  verification_result result;
  result.checked = actual.size();
  for (std::size_t index = 0; index < actual.size(); ++index) {
    const double error = std::abs(static_cast<double>(actual[index]) - oracle.y[index]);
    // Written so that NaN fails: every comparison with NaN is false.
    if (!(error <= oracle.tolerance(index, gamma_factor))) {
      if (result.mismatches++ == 0) {
        result.first = first_mismatch{index, oracle.y[index], static_cast<double>(actual[index])};
      }
    }
  }
  return result;
}

}  // namespace handoff::reference

#include "handoff/reference/jacobi.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace handoff::reference {
namespace {

// One step over the global indices [first, last) of a window whose local index 0 is the global
// index `offset`. The ends of the system use the zero boundary; every other neighbour is read from
// `x`. Keeping the two ends out of the loop leaves it without branches.
void step_range(const double* b, const double* x, double* x_new, std::size_t offset,
                std::size_t first, std::size_t last, std::size_t unknowns, double diagonal) {
  if (first >= last) return;
  std::size_t i = first;
  if (i == 0) {
    const double right = unknowns > 1 ? x[1 - offset] : 0.0;
    x_new[0 - offset] = ((b[0 - offset] + 0.0) + right) / diagonal;
    ++i;
  }
  const std::size_t interior_end = std::min(last, unknowns - 1);
  for (; i < interior_end; ++i) {
    const std::size_t k = i - offset;
    x_new[k] = ((b[k] + x[k - 1]) + x[k + 1]) / diagonal;
  }
  if (last == unknowns && unknowns > 1) {
    const std::size_t k = unknowns - 1 - offset;
    x_new[k] = ((b[k] + x[k - 1]) + 0.0) / diagonal;
  }
}

}  // namespace

void check_jacobi_problem(std::size_t b_size, std::size_t x0_size, int iterations,
                          double diagonal) {
  if (b_size == 0) throw std::invalid_argument("jacobi: the system has no unknowns");
  if (b_size != x0_size) {
    throw std::invalid_argument("jacobi: b has " + std::to_string(b_size) +
                                " unknowns but x0 has " + std::to_string(x0_size));
  }
  if (iterations < 1) {
    throw std::invalid_argument("jacobi: needs at least one iteration, got " +
                                std::to_string(iterations));
  }
  if (!std::isfinite(diagonal) || std::abs(diagonal) <= 2.0) {
    throw std::invalid_argument(
        "jacobi: the diagonal " + std::to_string(diagonal) +
        " does not make the tridiagonal system strictly dominant (|d| > 2)");
  }
}

std::vector<double> jacobi_1d(std::span<const float> b, std::span<const float> x0, int iterations,
                              double diagonal) {
  check_jacobi_problem(b.size(), x0.size(), iterations, diagonal);
  const std::size_t n = b.size();
  const std::vector<double> wide_b(b.begin(), b.end());
  std::vector<double> x(x0.begin(), x0.end());
  std::vector<double> x_new(n);
  for (int step = 0; step < iterations; ++step) {
    step_range(wide_b.data(), x.data(), x_new.data(), 0, 0, n, n, diagonal);
    x.swap(x_new);
  }
  return x;
}

std::vector<double> jacobi_1d_tiled(std::span<const float> b, std::span<const float> x0,
                                    int iterations, double diagonal, unsigned max_threads) {
  check_jacobi_problem(b.size(), x0.size(), iterations, diagonal);
  const std::size_t n = b.size();
  const auto halo = static_cast<std::size_t>(iterations);
  constexpr std::size_t tile = 8192;  // with its halo, three arrays of it stay in L2
  const std::size_t tiles = (n + tile - 1) / tile;
  std::vector<double> result(n);
  parallel_for(
      tiles,
      [&](std::size_t first_tile, std::size_t end_tile) {
        std::vector<double> wide_b, x, x_new;
        for (std::size_t t = first_tile; t < end_tile; ++t) {
          const std::size_t begin = t * tile;
          const std::size_t end = std::min(n, begin + tile);
          const std::size_t lo = begin > halo ? begin - halo : 0;
          const std::size_t hi = std::min(n, end + halo);
          wide_b.assign(b.begin() + static_cast<std::ptrdiff_t>(lo),
                        b.begin() + static_cast<std::ptrdiff_t>(hi));
          x.assign(x0.begin() + static_cast<std::ptrdiff_t>(lo),
                   x0.begin() + static_cast<std::ptrdiff_t>(hi));
          x_new.assign(hi - lo, 0.0);
          // After step s the window is exact only s elements in from an edge that is not the
          // system's own boundary; after `iterations` steps that still covers [begin, end).
          for (std::size_t s = 1; s <= halo; ++s) {
            const std::size_t first = lo == 0 ? 0 : lo + s;
            const std::size_t last = hi == n ? n : hi - s;
            step_range(wide_b.data(), x.data(), x_new.data(), lo, first, last, n, diagonal);
            x.swap(x_new);
          }
          std::copy(x.begin() + static_cast<std::ptrdiff_t>(begin - lo),
                    x.begin() + static_cast<std::ptrdiff_t>(end - lo),
                    result.begin() + static_cast<std::ptrdiff_t>(begin));
        }
      },
      max_threads, 1);
  return result;
}

double update_norm_squared(std::span<const float> x_new, std::span<const float> x_old) {
  if (x_new.size() != x_old.size()) {
    throw std::invalid_argument("update_norm_squared: " + std::to_string(x_new.size()) + " and " +
                                std::to_string(x_old.size()) + " elements");
  }
  double sum = 0.0;
  for (std::size_t i = 0; i < x_new.size(); ++i) {
    const double difference = static_cast<double>(x_new[i]) - static_cast<double>(x_old[i]);
    sum += difference * difference;
  }
  return sum;
}

}  // namespace handoff::reference

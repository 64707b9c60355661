#include <stdexcept>

#include "handoff/patterns/iterative/jacobi_host_variants.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::patterns::iterative {

void jacobi_step_on_host(std::span<const float> b, std::span<const float> x, std::span<float> x_new,
                         float diagonal) {
  const std::size_t n = b.size();
  if (x.size() != n || x_new.size() != n) {
    throw std::invalid_argument("jacobi_step_on_host: b, x and x_new differ in length");
  }
  if (n == 0) return;
  if (n == 1) {
    x_new[0] = ((b[0] + 0.0f) + 0.0f) / diagonal;
    return;
  }
  x_new[0] = ((b[0] + 0.0f) + x[1]) / diagonal;
  for (std::size_t i = 1; i + 1 < n; ++i)
    x_new[i] = ((b[i] + x[i - 1]) + x[i + 1]) / diagonal;
  x_new[n - 1] = ((b[n - 1] + x[n - 2]) + 0.0f) / diagonal;
}

jacobi_cpu_serial::jacobi_cpu_serial(jacobi_problem problem)
    : problem_(checked(problem)),
      state_{std::vector<float>(problem.b.size()), std::vector<float>(problem.b.size())} {}

void jacobi_cpu_serial::poison_output() {
  reference::poison(state_[0]);
  reference::poison(state_[1]);
}

void jacobi_cpu_serial::run() {
  std::span<const float> x = problem_.x0;
  for (int k = 1; k <= problem_.iterations; ++k) {
    auto& x_new = state_[(k - 1) % 2];
    jacobi_step_on_host(problem_.b, x, x_new, problem_.diagonal);
    x = x_new;
  }
}

std::span<const float> jacobi_cpu_serial::result() const {
  return state_[(problem_.iterations - 1) % 2];
}

}  // namespace handoff::patterns::iterative

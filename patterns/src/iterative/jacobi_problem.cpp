#include "handoff/patterns/iterative/jacobi_problem.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace handoff::patterns::iterative {

jacobi_problem checked(jacobi_problem problem) {
  reference::check_jacobi_problem(problem.b.size(), problem.x0.size(), problem.iterations,
                                  problem.diagonal);
  return problem;
}

std::vector<int> check_iterations(int iterations, int check_every) {
  if (check_every < 1) {
    throw std::invalid_argument("jacobi: check_every must be at least 1, got " +
                                std::to_string(check_every));
  }
  std::vector<int> at;
  for (int k = check_every; k <= iterations; k += check_every)
    at.push_back(k);
  if (iterations > 0 && (at.empty() || at.back() != iterations)) at.push_back(iterations);
  return at;
}

void convergence_log::record(int iteration, double norm_squared, std::size_t unknowns,
                             double rms_tolerance) {
  const double norm = std::sqrt(norm_squared);
  checked_at.push_back(iteration);
  update_norms.push_back(norm);
  const double rms = unknowns > 0 ? norm / std::sqrt(static_cast<double>(unknowns)) : 0.0;
  if (converged_at == 0 && rms <= rms_tolerance) converged_at = iteration;
}

}  // namespace handoff::patterns::iterative

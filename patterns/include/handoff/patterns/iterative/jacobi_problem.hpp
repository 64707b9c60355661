#pragma once
// What every variant of the iterative pattern solves, and what its host learns on the way. The
// pattern is seed 001's example 3: a coordinator runs a GPU solver for a number of iterations, each
// iteration's output feeding the next. The workload is Jacobi on the tridiagonal system of
// reference/jacobi.hpp; the variants differ only in where the state lives between iterations.

#include <cstddef>
#include <span>
#include <vector>

#include "handoff/reference/jacobi.hpp"

namespace handoff::patterns::iterative {

struct jacobi_problem {
  std::span<const float> b;
  std::span<const float> x0;
  int iterations = reference::jacobi_default_iterations;
  float diagonal = static_cast<float>(reference::jacobi_default_diagonal);
};

// The problem, once checked by reference::check_jacobi_problem (std::invalid_argument otherwise).
jacobi_problem checked(jacobi_problem problem);

// The device variants check convergence every check_every iterations, and after the last.
inline constexpr int default_check_every = 10;
// A check finds the solve converged when the root mean square of the latest update is at most
// this. The variants run every iteration regardless, so that all of them do the same work; the
// host's verdict is recorded, not acted on.
inline constexpr double default_update_rms_tolerance = 1e-6;

// The iterations (1-based) after which a run checks. std::invalid_argument when check_every < 1.
std::vector<int> check_iterations(int iterations, int check_every);

// What the host learned from the checks of one run.
struct convergence_log {
  std::vector<int> checked_at;       // the iteration after which each check ran
  std::vector<double> update_norms;  // ||x_k - x_(k-1)||_2 at each of them
  int converged_at = 0;              // the first checked iteration that met the tolerance; 0: none

  // The host's side of one check: records the norm (from its square) and compares it.
  void record(int iteration, double norm_squared, std::size_t unknowns,
              double rms_tolerance = default_update_rms_tolerance);
  double last_norm() const { return update_norms.empty() ? 0.0 : update_norms.back(); }
};

}  // namespace handoff::patterns::iterative

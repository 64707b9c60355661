// The iterative pattern on the host: the host's float step follows the reference's order exactly,
// bad problems get typed errors, and the convergence bookkeeping every variant shares. That the
// CPU variant verifies at every size is the conformance test's (conformance_test.cpp).

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "handoff/patterns/iterative/jacobi_host_variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/jacobi.hpp"
#include "handoff/reference/verify_relative.hpp"

namespace handoff::patterns::iterative {
namespace {

// The float step adds in the reference's order, so with inputs whose sums are exact in float it
// gives the double oracle's values exactly.
TEST(HostStep, AddsInTheReferencesOrder) {
  const std::vector<float> b{1.0f, 2.0f, 3.0f}, x{1.0f, 1.0f, 1.0f};
  std::vector<float> x_new(3);
  jacobi_step_on_host(b, x, x_new, 4.0f);
  EXPECT_EQ(x_new, (std::vector<float>{0.5f, 1.0f, 1.0f}));
  const std::vector<float> shorter(2);
  EXPECT_THROW(jacobi_step_on_host(b, shorter, x_new, 4.0f), std::invalid_argument);
}

TEST(JacobiProblem, BadProblemsGetTypedErrors) {
  const std::vector<float> three(3, 1.0f), two(2, 1.0f), none;
  EXPECT_THROW(jacobi_cpu_serial({.b = none, .x0 = none}), std::invalid_argument);
  EXPECT_THROW(jacobi_cpu_serial({.b = three, .x0 = three, .iterations = 0}),
               std::invalid_argument);
  EXPECT_THROW(jacobi_cpu_serial({.b = three, .x0 = two}), std::invalid_argument);
  EXPECT_THROW(jacobi_cpu_serial({.b = three, .x0 = three, .diagonal = 1.5f}),
               std::invalid_argument);
  EXPECT_THROW(checked({.b = two, .x0 = three}), std::invalid_argument);
}

TEST(CheckIterations, EveryKthAndAlwaysTheLast) {
  EXPECT_EQ(check_iterations(100, 10), (std::vector<int>{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}));
  EXPECT_EQ(check_iterations(25, 10), (std::vector<int>{10, 20, 25}));
  EXPECT_EQ(check_iterations(3, 10), std::vector<int>{3});
  EXPECT_EQ(check_iterations(1, 1), std::vector<int>{1});
  EXPECT_THROW(check_iterations(100, 0), std::invalid_argument);
}

TEST(ConvergenceLog, RecordsNormsAndTheFirstCheckThatMetTheTolerance) {
  convergence_log log;
  const std::size_t unknowns = 100;
  // rms = sqrt(norm^2 / n): 1e-3, then 1e-7 (meets 1e-6), then 1e-9
  log.record(10, 1e-6 * unknowns, unknowns);
  EXPECT_EQ(log.converged_at, 0);
  log.record(20, 1e-14 * unknowns, unknowns);
  log.record(30, 1e-18 * unknowns, unknowns);
  EXPECT_EQ(log.converged_at, 20);
  EXPECT_EQ(log.checked_at, (std::vector<int>{10, 20, 30}));
  EXPECT_DOUBLE_EQ(log.last_norm(), std::sqrt(1e-18 * unknowns));
  convergence_log poisoned;
  poisoned.record(10, std::nan(""), unknowns);
  EXPECT_EQ(poisoned.converged_at, 0);  // a NaN norm never counts as converged
}

}  // namespace
}  // namespace handoff::patterns::iterative

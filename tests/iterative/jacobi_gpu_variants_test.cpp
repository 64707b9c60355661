// The iterative pattern's device variants beyond the conformance test (conformance_gpu_test.cpp,
// which runs and verifies every row, norms included): the graph holds every step, the graph and
// the loop agree on every check, uneven step counts check the last step, bad problems are refused.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "handoff/patterns/iterative/jacobi_device_variants.hpp"
#include "handoff/patterns/iterative/jacobi_host_variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/jacobi.hpp"
#include "handoff/reference/verify_relative.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::patterns::iterative {
namespace {

struct system {
  std::vector<float> b, x0;
  std::vector<double> expected;
};

system seeded_system(std::size_t unknowns, int iterations = reference::jacobi_default_iterations) {
  system s{std::vector<float>(unknowns), std::vector<float>(unknowns), {}};
  reference::fill_seeded_nonzero(s.b, 81);
  reference::fill_seeded_nonzero(s.x0, 82);
  s.expected = reference::jacobi_1d(s.b, s.x0, iterations);
  return s;
}

void expect_matches(const system& s, std::span<const float> result, const char* what, int run) {
  const auto verdict =
      reference::verify_within_relative(s.expected, result, reference::jacobi_relative_tolerance);
  EXPECT_TRUE(verdict.passed()) << what << ", " << s.b.size() << " unknowns, run " << run << ": "
                                << verdict.describe();
}

// The device's last norm is over the two iterates the variant still holds; the host recomputes
// it from them, and every check's norm must be a real number.
template <class Variant>
void expect_norms_match_host(const Variant& variant, std::size_t checks, const char* what) {
  const auto& log = variant.convergence();
  ASSERT_EQ(log.update_norms.size(), checks) << what;
  for (const double norm : log.update_norms)
    EXPECT_TRUE(std::isfinite(norm) && norm > 0.0) << what << ": norm " << norm;
  const double host = reference::update_norm_squared(variant.result(), variant.previous_iterate());
  const auto verdict = reference::verify_reduction(host, log.last_norm() * log.last_norm());
  EXPECT_TRUE(verdict.passed()) << what << ": " << verdict.describe();
}

// 100 steps and 10 checks of at least one kernel each, and the one copy of the norms.
TEST(DeviceVariants, TheGraphHoldsEveryStepAndCheck) {
  HANDOFF_REQUIRE_GPUS(1);
  const auto s = seeded_system(1027);
  jacobi_graph variant({.b = s.b, .x0 = s.x0});
  EXPECT_GE(variant.graph_nodes(), 111u);
}

class DeviceVariants : public ::testing::TestWithParam<std::size_t> {};

// The same kernels and reductions in the same order: the graph's norms are the loop's.
TEST_P(DeviceVariants, GraphAndLoopAgreeOnEveryCheck) {
  HANDOFF_REQUIRE_GPUS(1);
  const auto s = seeded_system(GetParam());
  jacobi_device_loop loop({.b = s.b, .x0 = s.x0});
  jacobi_graph graph({.b = s.b, .x0 = s.x0});
  loop.poison_output();
  loop.enqueue();
  graph.poison_output();
  graph.enqueue();
  EXPECT_EQ(loop.convergence().checked_at, graph.convergence().checked_at);
  EXPECT_EQ(loop.convergence().update_norms, graph.convergence().update_norms);
  EXPECT_EQ(loop.result(), graph.result());
}

INSTANTIATE_TEST_SUITE_P(Sizes, DeviceVariants, ::testing::Values(1027u, 1u << 16));

// An iteration count that check_every does not divide still checks after the last iteration, and
// an odd one leaves the answer in the other buffer.
TEST(DeviceVariants, UnevenIterationCountsCheckTheLastIteration) {
  HANDOFF_REQUIRE_GPUS(1);
  const auto s = seeded_system(1027, 25);
  jacobi_device_loop loop({.b = s.b, .x0 = s.x0, .iterations = 25});
  jacobi_graph graph({.b = s.b, .x0 = s.x0, .iterations = 25});
  loop.poison_output();
  loop.enqueue();
  graph.poison_output();
  graph.enqueue();
  EXPECT_EQ(loop.convergence().checked_at, (std::vector<int>{10, 20, 25}));
  expect_matches(s, loop.result(), "device_loop, 25 iterations", 0);
  expect_matches(s, graph.result(), "graph, 25 iterations", 0);
  expect_norms_match_host(loop, 3, "device_loop, 25 iterations");
  expect_norms_match_host(graph, 3, "graph, 25 iterations");
}

TEST(DeviceVariants, BadProblemsAreRefusedBeforeAnyDeviceWork) {
  HANDOFF_REQUIRE_GPUS(1);
  const std::vector<float> three(3, 1.0f), two(2, 1.0f), none;
  EXPECT_THROW(jacobi_host_loop({.b = three, .x0 = two}), std::invalid_argument);
  EXPECT_THROW(jacobi_device_loop({.b = none, .x0 = none}), std::invalid_argument);
  EXPECT_THROW(jacobi_graph({.b = three, .x0 = three, .iterations = 0}), std::invalid_argument);
  EXPECT_THROW(jacobi_device_loop({.b = three, .x0 = three}, 0), std::invalid_argument);
  EXPECT_THROW(jacobi_graph({.b = three, .x0 = three}, 0), std::invalid_argument);
}

}  // namespace
}  // namespace handoff::patterns::iterative

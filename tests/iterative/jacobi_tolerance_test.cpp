// The iterative pattern's tolerance: float iterates within reference::jacobi_relative_tolerance of
// max|x| of the double oracle. Correct float solves pass with room to spare; a wrong iteration
// count, a wrong neighbour or a single wrong element fails.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "handoff/patterns/iterative/jacobi_host_variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/jacobi.hpp"
#include "handoff/reference/verify_relative.hpp"

namespace handoff::reference {
namespace {

constexpr float diagonal = static_cast<float>(jacobi_default_diagonal);

struct system {
  std::vector<float> b, x0;
  std::vector<double> expected;  // after jacobi_default_iterations
};

system seeded_system(std::size_t unknowns) {
  system s{std::vector<float>(unknowns), std::vector<float>(unknowns), {}};
  fill_seeded_nonzero(s.b, 41);
  fill_seeded_nonzero(s.x0, 42);
  s.expected = jacobi_1d(s.b, s.x0, jacobi_default_iterations);
  return s;
}

// A float solve; `right_offset` 1 is Jacobi, anything else plants a wrong right-hand neighbour.
std::vector<float> float_jacobi(const system& s, int iterations, std::size_t right_offset = 1) {
  std::vector<float> x(s.x0), x_new(x.size());
  const std::size_t n = x.size();
  for (int k = 0; k < iterations; ++k) {
    if (right_offset == 1) {
      patterns::iterative::jacobi_step_on_host(s.b, x, x_new, diagonal);
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        const float left = i > 0 ? x[i - 1] : 0.0f;
        const float right = i + right_offset < n ? x[i + right_offset] : 0.0f;
        x_new[i] = ((s.b[i] + left) + right) / diagonal;
      }
    }
    x.swap(x_new);
  }
  return x;
}

double max_magnitude(const std::vector<double>& values) {
  double largest = 0.0;
  for (const double value : values)
    largest = std::max(largest, std::abs(value));
  return largest;
}

class JacobiTolerance : public ::testing::TestWithParam<std::size_t> {};

// The derivation allows about 3.0e-6 of max|x|, a third of the tolerance; the typical error is far
// smaller still. Asserting half the tolerance keeps a regression in the rounding visible.
TEST_P(JacobiTolerance, CorrectFloatSolvePassesWithRoomToSpare) {
  const auto s = seeded_system(GetParam());
  const auto x = float_jacobi(s, jacobi_default_iterations);
  EXPECT_TRUE(verify_within_relative(s.expected, x, jacobi_relative_tolerance).passed());
  EXPECT_TRUE(verify_within_relative(s.expected, x, jacobi_relative_tolerance / 2).passed());
}

TEST_P(JacobiTolerance, OneIterationTooFewOrTooManyFails) {
  const auto s = seeded_system(GetParam());
  for (const int iterations : {jacobi_default_iterations - 1, jacobi_default_iterations + 1}) {
    const auto result =
        verify_within_relative(s.expected, float_jacobi(s, iterations), jacobi_relative_tolerance);
    EXPECT_FALSE(result.passed()) << iterations << " iterations passed as 100";
    // Not a hairline failure: most of the elements are off.
    EXPECT_GT(result.mismatches, result.checked / 4) << iterations << " iterations";
  }
}

TEST_P(JacobiTolerance, AWrongNeighbourFails) {
  const auto s = seeded_system(GetParam());
  for (const std::size_t right_offset : {std::size_t{0}, std::size_t{2}}) {
    EXPECT_FALSE(verify_within_relative(s.expected,
                                        float_jacobi(s, jacobi_default_iterations, right_offset),
                                        jacobi_relative_tolerance)
                     .passed())
        << "right neighbour at offset " << right_offset;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, JacobiTolerance, ::testing::Values(1027u, 1u << 16));

TEST(VerifyWithinRelative, BoundIsRelativeToTheLargestMagnitude) {
  const std::vector<double> expected{4.0, -1.0, 0.001};
  const double bound = 1e-5 * 4.0;
  std::vector<float> actual{4.0f, -1.0f, 0.001f};
  EXPECT_TRUE(verify_within_relative(expected, actual, 1e-5).passed());
  // The smallest element may be off by far more than its own size allows, but no more than the
  // bound set by the largest.
  actual[2] = static_cast<float>(0.001 + 0.5 * bound);
  EXPECT_TRUE(verify_within_relative(expected, actual, 1e-5).passed());
  actual[2] = static_cast<float>(0.001 + 2.0 * bound);
  const auto result = verify_within_relative(expected, actual, 1e-5);
  EXPECT_EQ(result.mismatches, 1u);
  ASSERT_TRUE(result.first.has_value());
  EXPECT_EQ(result.first->index, 2u);
}

TEST(VerifyWithinRelative, CatchesAPlantedWrongElementOfALargeSolve) {
  const auto s = seeded_system(1u << 16);
  auto x = float_jacobi(s, jacobi_default_iterations);
  x[12345] += static_cast<float>(2.0 * jacobi_relative_tolerance * max_magnitude(s.expected));
  const auto result = verify_within_relative(s.expected, x, jacobi_relative_tolerance);
  EXPECT_EQ(result.mismatches, 1u);
  EXPECT_EQ(result.first->index, 12345u);
}

TEST(VerifyWithinRelative, NaNNeverPasses) {
  const std::vector<double> expected{1.0, 2.0};
  const std::vector<float> actual{1.0f, std::numeric_limits<float>::quiet_NaN()};
  EXPECT_EQ(verify_within_relative(expected, actual, 1.0).mismatches, 1u);
  std::vector<float> poisoned(2);
  poison(poisoned);
  EXPECT_EQ(verify_within_relative(expected, poisoned, 1.0).mismatches, 2u);
}

TEST(VerifyWithinRelative, RefusesMismatchedLengthsAndBadTolerances) {
  const std::vector<double> expected{1.0, 2.0};
  const std::vector<float> shorter{1.0f};
  const std::vector<float> same{1.0f, 2.0f};
  EXPECT_THROW(verify_within_relative(expected, shorter, 1e-5), std::invalid_argument);
  EXPECT_THROW(verify_within_relative(expected, same, -1e-5), std::invalid_argument);
  EXPECT_THROW(verify_within_relative(expected, same, std::nan("")), std::invalid_argument);
}

}  // namespace
}  // namespace handoff::reference

// The double-precision Jacobi oracle: hand-checked steps, a known solution, its tiled twin, and
// the typed errors for problems it cannot solve.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/jacobi.hpp"

namespace handoff::reference {
namespace {

std::vector<float> seeded(std::size_t count, std::uint64_t seed) {
  std::vector<float> values(count);
  fill_seeded_nonzero(values, seed);
  return values;
}

// d = 4, b = (1, 2, 3), x0 = (1, 1, 1); every value below is exact in binary.
//   step 1: ((1 + 0) + 1)/4 = 0.5, ((2 + 1) + 1)/4 = 1,     ((3 + 1) + 0)/4 = 1
//   step 2: ((1 + 0) + 1)/4 = 0.5, ((2 + 0.5) + 1)/4 = 0.875, ((3 + 1) + 0)/4 = 1
TEST(JacobiReference, FirstTwoStepsMatchTheHandComputedValues) {
  const std::vector<float> b{1.0f, 2.0f, 3.0f};
  const std::vector<float> x0{1.0f, 1.0f, 1.0f};
  EXPECT_EQ(jacobi_1d(b, x0, 1, 4.0), (std::vector<double>{0.5, 1.0, 1.0}));
  EXPECT_EQ(jacobi_1d(b, x0, 2, 4.0), (std::vector<double>{0.5, 0.875, 1.0}));
}

// b = A * (1, ..., 1) is (d - 1, d - 2, ..., d - 2, d - 1): the solution is all ones, a fixed point
// that Jacobi keeps exactly and reaches from elsewhere.
std::vector<float> rhs_of_all_ones(std::size_t n, double diagonal) {
  std::vector<float> b(n, static_cast<float>(diagonal - 2.0));
  b.front() = b.back() = static_cast<float>(diagonal - 1.0);
  return b;
}

TEST(JacobiReference, TheSolutionIsAFixedPoint) {
  const auto b = rhs_of_all_ones(100, 4.0);
  const std::vector<float> ones(100, 1.0f);
  EXPECT_EQ(jacobi_1d(b, ones, 7, 4.0), std::vector<double>(100, 1.0));
}

TEST(JacobiReference, ConvergesToTheKnownSolution) {
  const auto b = rhs_of_all_ones(1000, jacobi_default_diagonal);
  const auto x = jacobi_1d(b, seeded(1000, 3), 1000);
  for (std::size_t i = 0; i < x.size(); ++i)
    ASSERT_NEAR(x[i], 1.0, 1e-12) << "at " << i;
}

TEST(JacobiReference, OneUnknownHasNoNeighbours) {
  const std::vector<float> b{3.0f}, x0{5.0f};
  EXPECT_EQ(jacobi_1d(b, x0, 2, 4.0), std::vector<double>{0.75});
}

struct tiled_case {
  std::size_t unknowns;
  int iterations;
  unsigned threads;
};

class JacobiTiled : public ::testing::TestWithParam<tiled_case> {};

// Tiles of 8192 with a halo of `iterations`: sizes below, at and across tile edges, halos wider
// than the system, and one or several threads all give the serial oracle's bits.
TEST_P(JacobiTiled, GivesTheSerialOraclesExactResult) {
  const auto [unknowns, iterations, threads] = GetParam();
  const auto b = seeded(unknowns, 11);
  const auto x0 = seeded(unknowns, 12);
  EXPECT_EQ(jacobi_1d_tiled(b, x0, iterations, jacobi_default_diagonal, threads),
            jacobi_1d(b, x0, iterations))
      << unknowns << " unknowns, " << iterations << " iterations, " << threads << " threads";
}

INSTANTIATE_TEST_SUITE_P(Sizes, JacobiTiled,
                         ::testing::Values(tiled_case{1, 100, 1}, tiled_case{2, 3, 1},
                                           tiled_case{1027, 100, 4}, tiled_case{8192, 100, 2},
                                           tiled_case{8193, 1, 2}, tiled_case{3 * 8192 + 5, 100, 4},
                                           tiled_case{8200, 8300, 2}));

TEST(JacobiReference, RefusesProblemsItCannotSolve) {
  const std::vector<float> three(3, 1.0f), two(2, 1.0f), none;
  EXPECT_THROW(jacobi_1d(none, none, 100), std::invalid_argument);
  EXPECT_THROW(jacobi_1d(three, three, 0), std::invalid_argument);
  EXPECT_THROW(jacobi_1d(three, three, -1), std::invalid_argument);
  EXPECT_THROW(jacobi_1d(three, two, 100), std::invalid_argument);
  EXPECT_THROW(jacobi_1d(three, three, 100, 2.0), std::invalid_argument);  // not strictly dominant
  EXPECT_THROW(jacobi_1d(three, three, 100, std::nan("")), std::invalid_argument);
  EXPECT_THROW(jacobi_1d_tiled(three, two, 100), std::invalid_argument);
  EXPECT_THROW(jacobi_1d_tiled(none, none, 100), std::invalid_argument);
  EXPECT_NO_THROW(jacobi_1d(three, three, 1, -2.5));  // a negative diagonal can dominate too
}

TEST(UpdateNorm, SumsTheSquaredDifferencesInDouble) {
  const std::vector<float> x_new{1.0f, 2.0f, 3.5f}, x_old{1.0f, 0.0f, 0.5f};
  EXPECT_EQ(update_norm_squared(x_new, x_old), 0.0 + 4.0 + 9.0);
  // The difference of two floats is exact in double: (1 + 2^-23) - 1 = 2^-23, squared 2^-46.
  const std::vector<float> a{1.0f + 0x1.0p-23f}, b{1.0f};
  EXPECT_EQ(update_norm_squared(a, b), 0x1.0p-46);
  EXPECT_THROW(update_norm_squared(x_new, a), std::invalid_argument);
}

}  // namespace
}  // namespace handoff::reference

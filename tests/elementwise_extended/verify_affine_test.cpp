// The affine tolerance: it accepts float results summed in any order and rejects a result with one
// term of one dot product wrong.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/verify_affine.hpp"

namespace handoff::reference {
namespace {

struct affine_case {
  std::size_t n;
  std::vector<float> w, x, bias;
  affine_oracle oracle;

  explicit affine_case(std::size_t order) : n(order), w(n * n), x(n * n), bias(n) {
    fill_seeded_nonzero(w, 41);
    fill_seeded_nonzero(x, 42);
    fill_seeded_nonzero(bias, 43);
    oracle = affine_reference(n, w, x, bias);
  }

  // Y in float, each dot product summed in the given order of k, the bias added last; skip_k
  // drops one term of element (skip_i, skip_j), as a bug that loses a term would.
  std::vector<float> float_result(bool reverse_k, std::size_t skip_i = SIZE_MAX,
                                  std::size_t skip_j = SIZE_MAX,
                                  std::size_t skip_k = SIZE_MAX) const {
    std::vector<float> y(n * n);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        float sum = 0.0f;
        for (std::size_t step = 0; step < n; ++step) {
          const std::size_t k = reverse_k ? n - 1 - step : step;
          if (i == skip_i && j == skip_j && k == skip_k) continue;
          sum += w[i * n + k] * x[k * n + j];
        }
        y[i * n + j] = sum + bias[i];
      }
    }
    return y;
  }

  // The term of element (i, j) with the smallest magnitude: the hardest one to miss.
  std::size_t smallest_term(std::size_t i, std::size_t j) const {
    std::size_t best = 0;
    for (std::size_t k = 1; k < n; ++k) {
      if (std::abs(w[i * n + k] * x[k * n + j]) < std::abs(w[i * n + best] * x[best * n + j])) {
        best = k;
      }
    }
    return best;
  }
};

class AffineTolerance : public ::testing::TestWithParam<std::size_t> {};

TEST_P(AffineTolerance, AcceptsTheReferenceRoundedToFloat) {
  const affine_case c(GetParam());
  std::vector<float> rounded(c.oracle.y.begin(), c.oracle.y.end());
  const auto result = verify_affine(c.oracle, rounded);
  EXPECT_TRUE(result.passed()) << result.describe();
  EXPECT_EQ(result.checked, c.n * c.n);
}

TEST_P(AffineTolerance, AcceptsFloatSumsInEitherOrder) {
  const affine_case c(GetParam());
  for (const bool reverse : {false, true}) {
    const auto result = verify_affine(c.oracle, c.float_result(reverse));
    EXPECT_TRUE(result.passed()) << (reverse ? "reverse: " : "forward: ") << result.describe();
  }
}

TEST_P(AffineTolerance, RejectsTheSmallestTermDropped) {
  const affine_case c(GetParam());
  const std::size_t i = c.n / 2;
  const std::size_t j = c.n - 1;
  const std::size_t k = c.smallest_term(i, j);
  const auto result = verify_affine(c.oracle, c.float_result(false, i, j, k));
  EXPECT_EQ(result.mismatches, 1U) << result.describe();
  ASSERT_TRUE(result.first.has_value());
  EXPECT_EQ(result.first->index, i * c.n + j);
}

INSTANTIATE_TEST_SUITE_P(Orders, AffineTolerance, ::testing::Values(1u, 2u, 37u, 64u, 256u));

TEST(AffineTolerance, IsTheBoundItClaims) {
  const affine_case c(64);
  const std::size_t index = 64 * 10 + 20;
  const double tolerance = c.oracle.tolerance(index);
  EXPECT_NEAR(tolerance,
              2.0 * 64 * 0x1p-24 * c.oracle.magnitude[index] + 0x1p-23 * std::abs(c.bias[10]),
              1e-15);
  std::vector<float> y(c.oracle.y.begin(), c.oracle.y.end());
  y[index] = static_cast<float>(c.oracle.y[index] + 0.9 * tolerance);
  EXPECT_TRUE(verify_affine(c.oracle, y).passed());
  y[index] = static_cast<float>(c.oracle.y[index] - 1.1 * tolerance);
  EXPECT_EQ(verify_affine(c.oracle, y).mismatches, 1U);
}

TEST(AffineTolerance, RejectsNaN) {
  const affine_case c(5);
  std::vector<float> y(c.oracle.y.begin(), c.oracle.y.end());
  y[7] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(verify_affine(c.oracle, y).mismatches, 1U);
  poison(y);
  EXPECT_EQ(verify_affine(c.oracle, y).mismatches, 25U);
}

TEST(AffineTolerance, WrongSizesAreTypedErrors) {
  const affine_case c(4);
  const std::vector<float> short_result(15);
  EXPECT_THROW(verify_affine(c.oracle, short_result), std::invalid_argument);
  EXPECT_THROW(affine_reference(4, c.w, c.x, std::vector<float>(3)), std::invalid_argument);
  EXPECT_THROW(affine_reference(5, c.w, c.x, c.bias), std::invalid_argument);
}

TEST(AffineReference, MatchesAHandWorkedExample) {
  // W = [[1, 2], [3, 4]], X = [[5, 6], [7, 8]], b = [1, -1]: W X + b = [[20, 23], [42, 49]].
  const std::vector<float> w{1, 2, 3, 4}, x{5, 6, 7, 8}, bias{1, -1};
  const auto oracle = affine_reference(2, w, x, bias);
  EXPECT_EQ(oracle.y, (std::vector<double>{20, 23, 42, 49}));
  EXPECT_EQ(oracle.magnitude, (std::vector<double>{19, 22, 43, 50}));
}

}  // namespace
}  // namespace handoff::reference

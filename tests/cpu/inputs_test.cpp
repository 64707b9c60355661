#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"

namespace handoff::reference {
namespace {

TEST(SeededInputs, NeverZeroNeverNonFiniteAndInRange) {
  std::vector<float> values(1 << 18);
  fill_seeded_nonzero(values, 42);
  std::size_t negatives = 0;
  for (float value : values) {
    ASSERT_TRUE(std::isfinite(value));
    ASSERT_GE(std::abs(value), input_magnitude_min);
    ASSERT_LT(std::abs(value), input_magnitude_max);
    negatives += value < 0;
  }
  // Both signs appear in roughly equal numbers.
  EXPECT_GT(negatives, values.size() / 3);
  EXPECT_LT(negatives, 2 * values.size() / 3);
}

TEST(SeededInputs, SameSeedSameDataWhateverTheSize) {
  std::vector<float> small(1000), large(300000);
  fill_seeded_nonzero(small, 9);
  fill_seeded_nonzero(large, 9);
  for (std::size_t i = 0; i < small.size(); ++i)
    ASSERT_EQ(small[i], large[i]) << "index " << i;
}

TEST(SeededInputs, DifferentSeedsDiffer) {
  std::vector<float> first(1000), second(1000);
  fill_seeded_nonzero(first, 1);
  fill_seeded_nonzero(second, 2);
  std::size_t equal = 0;
  for (std::size_t i = 0; i < first.size(); ++i)
    equal += first[i] == second[i];
  EXPECT_LT(equal, 10u);
}

TEST(Poison, EveryElementBecomesNaN) {
  std::vector<float> values(33, 1.0f);
  poison(values);
  for (float value : values)
    EXPECT_TRUE(std::isnan(value));
}

TEST(VectorAddReference, AddsElementwiseAcrossThreadSlices) {
  for (std::size_t count : {0u, 1u, 1023u, 1025u, (1u << 20) + 3u}) {
    std::vector<float> a(count), b(count), out(count);
    fill_seeded_nonzero(a, 1);
    fill_seeded_nonzero(b, 2);
    poison(out);
    vector_add(a, b, out);
    for (std::size_t i = 0; i < count; ++i) {
      ASSERT_EQ(out[i], a[i] + b[i]) << "count " << count << " index " << i;
    }
  }
}

TEST(VectorAddReference, RejectsMismatchedLengths) {
  std::vector<float> a(3), b(4), out(3);
  EXPECT_THROW(vector_add(a, b, out), std::invalid_argument);
}

}  // namespace
}  // namespace handoff::reference

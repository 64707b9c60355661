#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "handoff/patterns/elementwise/vector_add_variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/parallel_for.hpp"
#include "handoff/reference/vector_add.hpp"
#include "handoff/reference/verify.hpp"

namespace handoff::patterns::elementwise {
namespace {

template <class Variant>
void expect_variant_matches_reference(std::size_t count) {
  std::vector<float> a(count), b(count), expected(count);
  reference::fill_seeded_nonzero(a, 11);
  reference::fill_seeded_nonzero(b, 12);
  reference::vector_add(a, b, expected);
  Variant variant({a, b});
  variant.poison_output();
  variant.run();
  const auto result = reference::verify_elementwise(expected, variant.result());
  EXPECT_TRUE(result.passed()) << "count " << count << ": " << result.describe();
}

class CpuVariants : public ::testing::TestWithParam<std::size_t> {};

TEST_P(CpuVariants, SerialMatchesReference) {
  expect_variant_matches_reference<vector_add_cpu_serial>(GetParam());
}

TEST_P(CpuVariants, ThreadsMatchReference) {
  expect_variant_matches_reference<vector_add_cpu_threads>(GetParam());
}

TEST(CpuThreads, ReportsTheThreadsItActuallyUsed) {
  const std::vector<float> small(10, 1.0f);
  vector_add_cpu_threads few({small, small});
  few.run();
  EXPECT_EQ(few.threads_used(), 1u) << "10 elements are below one thread's grain";
  const std::vector<float> large(8 * reference::parallel_grain, 1.0f);
  vector_add_cpu_threads many({large, large});
  many.run();
  EXPECT_EQ(many.threads_used(), std::min(8u, reference::default_thread_count()));
}

TEST(CpuVariantInputs, MismatchedLengthsAreRefused) {
  const std::vector<float> a(10, 1.0f), b(9, 1.0f);
  EXPECT_THROW(vector_add_cpu_serial({a, b}), std::invalid_argument);
  EXPECT_THROW(vector_add_cpu_threads({a, b}), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(EdgeSizes, CpuVariants,
                         ::testing::Values(0u, 1u, 1023u, 1025u, (1u << 20) + 3u));

}  // namespace
}  // namespace handoff::patterns::elementwise

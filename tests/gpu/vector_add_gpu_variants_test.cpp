#include <gtest/gtest.h>

#include <vector>

#include "handoff/patterns/elementwise/vector_add_variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"
#include "handoff/reference/verify.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::patterns::elementwise {
namespace {

// Each variant runs twice, poisoned before each run, as the benchmark harness drives it.
template <class Variant>
void expect_variant_matches_reference(std::size_t count) {
  std::vector<float> a(count), b(count), expected(count);
  reference::fill_seeded_nonzero(a, 21);
  reference::fill_seeded_nonzero(b, 22);
  reference::vector_add(a, b, expected);
  Variant variant({a, b});
  for (int run = 0; run < 2; ++run) {
    variant.poison_output();
    variant.enqueue();
    const auto result = reference::verify_elementwise(expected, variant.result());
    EXPECT_TRUE(result.passed()) << "count " << count << " run " << run << ": "
                                 << result.describe();
  }
}

class GpuVariants : public ::testing::TestWithParam<std::size_t> {};

TEST_P(GpuVariants, TransfersMatchReference) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_variant_matches_reference<vector_add_gpu_transfers>(GetParam());
}

TEST_P(GpuVariants, PinnedTransfersMatchReference) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_variant_matches_reference<vector_add_gpu_transfers_pinned>(GetParam());
}

TEST_P(GpuVariants, ResidentMatchesReference) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_variant_matches_reference<vector_add_gpu_resident>(GetParam());
}

TEST(GpuVariantInputs, MismatchedLengthsAreRefusedBeforeAnyCopy) {
  HANDOFF_REQUIRE_GPUS(1);
  const std::vector<float> a(10, 1.0f), b(9, 1.0f);
  EXPECT_THROW(vector_add_gpu_transfers({a, b}), std::invalid_argument);
  EXPECT_THROW(vector_add_gpu_transfers_pinned({a, b}), std::invalid_argument);
  EXPECT_THROW(vector_add_gpu_resident({a, b}), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(EdgeSizes, GpuVariants,
                         ::testing::Values(0u, 1u, 1023u, 1025u, (1u << 20) + 3u));

}  // namespace
}  // namespace handoff::patterns::elementwise

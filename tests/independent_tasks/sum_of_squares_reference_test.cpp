#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <vector>

#include "handoff/patterns/independent_tasks/cpu_variants.hpp"
#include "handoff/patterns/independent_tasks/datasets.hpp"
#include "handoff/reference/sum_of_squares.hpp"
#include "task_support.hpp"

namespace handoff::patterns::independent_tasks {
namespace {

using testing_support::make_batch;
using testing_support::uneven_sizes;

TEST(SumOfSquaresReference, SumsExactlyRepresentableSquares) {
  const std::vector<float> values = {1.0f, -2.0f, 3.0f, 0.5f};
  EXPECT_EQ(reference::sum_of_squares(values), 14.25);
  EXPECT_EQ(reference::sum_of_squares(std::span<const float>{}), 0.0);
}

TEST(SumOfSquaresReference, CountsMismatchesPerDatasetAndNamesTheFirst) {
  const std::vector<double> expected = {1.0, 2.0, 3.0, 4.0};
  std::vector<float> actual = {1.0f, 2.0f, 3.0f, 4.0f};
  EXPECT_TRUE(reference::verify_reductions(expected, actual).passed());
  EXPECT_EQ(reference::verify_reductions(expected, actual).checked, 4u);
  actual[2] = 3.001f;
  actual[3] = std::numeric_limits<float>::quiet_NaN();
  const auto result = reference::verify_reductions(expected, actual);
  EXPECT_EQ(result.mismatches, 2u);
  ASSERT_TRUE(result.first.has_value());
  EXPECT_EQ(result.first->index, 2u);
}

TEST(SumOfSquaresReference, AcceptsRoundingWithinTheTolerance) {
  const std::vector<double> expected = {1e6};
  const std::vector<float> close = {static_cast<float>(1e6 * (1 + 5e-6))};
  const std::vector<float> far = {static_cast<float>(1e6 * (1 + 5e-5))};
  EXPECT_TRUE(reference::verify_reductions(expected, close).passed());
  EXPECT_FALSE(reference::verify_reductions(expected, far).passed());
}

TEST(SumOfSquaresReference, AnEmptyDatasetSumsToExactlyZero) {
  const std::vector<double> expected = {0.0};
  EXPECT_TRUE(reference::verify_reductions(expected, std::vector<float>{0.0f}).passed());
  EXPECT_FALSE(reference::verify_reductions(expected, std::vector<float>{1e-3f}).passed());
}

TEST(SumOfSquaresReference, AResultCountThatDiffersIsAnError) {
  const std::vector<double> expected = {1.0, 2.0};
  EXPECT_THROW(reference::verify_reductions(expected, std::vector<float>{1.0f}),
               std::invalid_argument);
}

TEST(DatasetBatch, LaysDatasetsBackToBackWithTheirOffsets) {
  const std::vector<std::size_t> sizes = {3, 0, 5};
  const auto batch = dataset_batch::seeded(sizes, 3);
  ASSERT_EQ(batch.size(), 3u);
  EXPECT_EQ(batch.total_elements(), 8u);
  EXPECT_EQ(std::vector<std::int64_t>(batch.offsets().begin(), batch.offsets().end()),
            (std::vector<std::int64_t>{0, 3, 3, 8}));
  EXPECT_EQ(batch.dataset(1).size(), 0u);
  EXPECT_EQ(batch.dataset(2).data(), batch.values().data() + 3);
  for (const float value : batch.values())
    EXPECT_NE(value, 0.0f);
  EXPECT_THROW(batch.dataset(3), std::out_of_range);
  EXPECT_EQ(dataset_batch::seeded({}, 3).size(), 0u);
}

TEST(CpuSumOfSquares, MatchesTheReferenceAtEverySize) {
  for (const std::size_t size : {0u, 1u, 7u, 8u, 9u, 1027u, 100'000u, 1'000'000u}) {
    const auto made = make_batch({size}, 40 + size);
    const std::vector<float> actual = {cpu_sum_of_squares(made.batch.dataset(0))};
    const auto result = reference::verify_reductions(made.expected, actual);
    EXPECT_TRUE(result.passed()) << size << ": " << result.describe();
  }
}

template <class Variant>
void check_cpu_variant() {
  const auto made = make_batch(uneven_sizes);
  Variant variant(made.batch);
  variant.poison_output();
  EXPECT_FALSE(reference::verify_reductions(made.expected, variant.result()).passed())
      << "a poisoned result must fail";
  variant.run();
  const auto result = reference::verify_reductions(made.expected, variant.result());
  EXPECT_TRUE(result.passed()) << result.describe();
  EXPECT_EQ(result.checked, uneven_sizes.size());
}

TEST(CpuVariants, SerialSumsEveryDatasetInOrder) {
  check_cpu_variant<cpu_serial>();
}

TEST(CpuVariants, ThreadsSumEveryDatasetInOrder) {
  check_cpu_variant<cpu_threads>();
  // Enough data for several threads, where the machine has them.
  const auto made = make_batch(std::vector<std::size_t>(64, 20'000));
  cpu_threads variant(made.batch);
  variant.run();
  EXPECT_TRUE(reference::verify_reductions(made.expected, variant.result()).passed());
  EXPECT_GE(variant.threads_used(), 1u);
}

}  // namespace
}  // namespace handoff::patterns::independent_tasks

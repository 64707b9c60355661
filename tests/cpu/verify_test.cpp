#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/verify.hpp"

namespace handoff::reference {
namespace {

std::vector<float> seeded(std::size_t count, std::uint64_t seed = 7) {
  std::vector<float> values(count);
  fill_seeded_nonzero(values, seed);
  return values;
}

TEST(VerifyElementwise, IdenticalOutputPasses) {
  const auto expected = seeded(1000);
  const auto result = verify_elementwise(expected, expected);
  EXPECT_TRUE(result.passed());
  EXPECT_EQ(result.checked, 1000u);
  EXPECT_FALSE(result.first.has_value());
}

TEST(VerifyElementwise, CatchesPlantedWrongElementAndReportsIt) {
  const auto expected = seeded(1000);
  auto actual = expected;
  actual[617] += 1.0f;
  const auto result = verify_elementwise(expected, actual);
  ASSERT_FALSE(result.passed());
  EXPECT_EQ(result.mismatches, 1u);
  ASSERT_TRUE(result.first.has_value());
  EXPECT_EQ(result.first->index, 617u);
  EXPECT_EQ(result.first->expected, expected[617]);
  EXPECT_EQ(result.first->actual, actual[617]);
  EXPECT_NE(result.describe().find("index 617"), std::string::npos) << result.describe();
}

TEST(VerifyElementwise, CountsEveryMismatchButKeepsTheFirst) {
  const auto expected = seeded(100);
  auto actual = expected;
  for (std::size_t i : {90u, 10u, 50u})
    actual[i] = -actual[i];
  const auto result = verify_elementwise(expected, actual);
  EXPECT_EQ(result.mismatches, 3u);
  EXPECT_EQ(result.first->index, 10u);
}

TEST(VerifyElementwise, ParallelSlicesCountEveryMismatchAndReportTheLowestIndex) {
  // Large enough that parallel_for splits it over threads: the mismatches fall in different slices.
  std::vector<float> expected(std::size_t{1} << 21, 1.5f);
  std::vector<float> actual = expected;
  for (const std::size_t index :
       {std::size_t{1900000}, std::size_t{1200001}, std::size_t{300000}}) {
    actual[index] = -1.5f;
  }
  const auto result = reference::verify_elementwise(expected, actual);
  EXPECT_EQ(result.checked, expected.size());
  EXPECT_EQ(result.mismatches, 3u);
  ASSERT_TRUE(result.first.has_value());
  EXPECT_EQ(result.first->index, 300000u);

  actual = expected;
  actual.back() = 0.0f;
  const auto only_last = reference::verify_elementwise(expected, actual);
  EXPECT_EQ(only_last.mismatches, 1u);
  ASSERT_TRUE(only_last.first.has_value());
  EXPECT_EQ(only_last.first->index, expected.size() - 1);
}

TEST(VerifyElementwise, NaNNeverPasses) {
  const std::vector<float> expected = {1.0f, std::numeric_limits<float>::quiet_NaN()};
  const std::vector<float> actual = {1.0f, std::numeric_limits<float>::quiet_NaN()};
  const auto result = verify_elementwise(expected, actual);
  EXPECT_EQ(result.mismatches, 1u) << "NaN must not match NaN";
  std::vector<float> nan_output = {std::numeric_limits<float>::quiet_NaN(), 2.0f};
  EXPECT_FALSE(verify_elementwise(std::vector<float>{1.0f, 2.0f}, nan_output).passed());
}

TEST(VerifyElementwise, UnwrittenPoisonedOutputFails) {
  const auto expected = seeded(257);
  std::vector<float> output(257);
  poison(output);
  const auto result = verify_elementwise(expected, output);
  EXPECT_EQ(result.mismatches, 257u);
  for (std::size_t i = 0; i < 200; ++i)
    output[i] = expected[i];
  EXPECT_EQ(verify_elementwise(expected, output).mismatches, 57u);
  EXPECT_EQ(verify_elementwise(expected, output).first->index, 200u);
}

TEST(VerifyElementwise, OneUlpPassesTwoFail) {
  const float value = 1.5f;
  const float one_up = std::nextafter(value, 2.0f);
  const float two_up = std::nextafter(one_up, 2.0f);
  EXPECT_TRUE(verify_elementwise(std::vector{value}, std::vector{one_up}).passed());
  EXPECT_FALSE(verify_elementwise(std::vector{value}, std::vector{two_up}).passed());
  EXPECT_TRUE(verify_elementwise(std::vector{value}, std::vector{two_up}, 2).passed());
  EXPECT_FALSE(verify_elementwise(std::vector{value}, std::vector{one_up}, 0).passed());
}

TEST(VerifyElementwise, UlpDistanceCrossesZero) {
  EXPECT_EQ(ulp_distance(0.0f, -0.0f), 0u);
  const float tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(ulp_distance(tiny, -tiny), 2u);
  EXPECT_EQ(
      ulp_distance(std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity()),
      0u);
}

TEST(VerifyElementwise, LengthMismatchIsAnError) {
  EXPECT_THROW(verify_elementwise(std::vector<float>(3), std::vector<float>(4)),
               std::invalid_argument);
}

TEST(VerifyReduction, WithinRelativeToleranceOfDoubleReference) {
  EXPECT_TRUE(verify_reduction(1000.0, 1000.0 * (1 + 0.9e-5)).passed());
  EXPECT_FALSE(verify_reduction(1000.0, 1000.0 * (1 + 1.1e-5)).passed());
  EXPECT_FALSE(verify_reduction(-1000.0, 1000.0).passed());
}

TEST(VerifyReduction, NaNNeverPasses) {
  EXPECT_FALSE(verify_reduction(1.0, std::numeric_limits<double>::quiet_NaN()).passed());
  EXPECT_FALSE(verify_reduction(std::numeric_limits<double>::quiet_NaN(),
                                std::numeric_limits<double>::quiet_NaN())
                   .passed());
}

TEST(VerifyBytes, FindsTheFirstDifferingByte) {
  std::vector<std::byte> expected(64, std::byte{1});
  auto actual = expected;
  EXPECT_TRUE(verify_bytes(expected, actual).passed());
  actual[40] = std::byte{2};
  const auto result = verify_bytes(expected, actual);
  EXPECT_EQ(result.mismatches, 1u);
  EXPECT_EQ(result.first->index, 40u);
}

TEST(VerifyResult, SlicesAddUpAndKeepTheFirstMismatchAtItsWholeIndex) {
  const std::vector<std::byte> expected(8, std::byte{1});
  std::vector<std::byte> first_slice = expected;
  std::vector<std::byte> second_slice = expected;
  second_slice[3] = std::byte{2};
  second_slice[5] = std::byte{2};
  verification_result whole = verify_bytes(expected, first_slice);
  whole.add_slice(verify_bytes(expected, second_slice), expected.size());
  EXPECT_EQ(whole.checked, 16u);
  EXPECT_EQ(whole.mismatches, 2u);
  ASSERT_TRUE(whole.first.has_value());
  EXPECT_EQ(whole.first->index, 11u);
  first_slice[6] = std::byte{0};
  verification_result earlier = verify_bytes(expected, first_slice);
  earlier.add_slice(verify_bytes(expected, second_slice), expected.size());
  EXPECT_EQ(earlier.first->index, 6u);
}

TEST(VerifyCount, ExactOnly) {
  EXPECT_TRUE(verify_count(1000, 1000).passed());
  EXPECT_FALSE(verify_count(1000, 999).passed());
}

}  // namespace
}  // namespace handoff::reference

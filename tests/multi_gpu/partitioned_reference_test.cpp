// The oracle for seed 004's user kernels over a partitioned array, with the article's two
// workloads' CPU references as registered (patterns/multi_gpu/workload_registry.hpp). The expected
// values here are computed in double and rounded once, a path the oracle does not share: for
// inputs in [0.5, 2) and small device values the double result is exact, so rounding it gives the
// correctly rounded float that one IEEE operation on a device must produce.

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "handoff/patterns/multi_gpu/workload_registry.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/partitioned_elementwise.hpp"
#include "handoff/reference/verify.hpp"

namespace handoff::reference {
namespace {

constexpr std::uint64_t seed = 4004;

element_reference scale_by_two() {
  return patterns::multi_gpu::find_workload("scale_by_two").reference;
}

element_reference add_device_value() {
  return patterns::multi_gpu::find_workload("add_device_value").reference;
}

std::vector<float> seeded(std::size_t count) {
  std::vector<float> values(count);
  fill_seeded_nonzero(values, seed);
  return values;
}

// Two devices splitting like np.array_split, and a third range of a different length, so more than
// one value boundary falls inside a parallel_for slice.
std::vector<value_range> three_ranges(std::size_t count) {
  const std::size_t first = count / 2 + 1;
  const std::size_t second = count / 3;
  return {{.offset = 0, .count = first, .value = device_value_of(0)},
          {.offset = first, .count = second, .value = device_value_of(1)},
          {.offset = first + second, .count = count - first - second, .value = device_value_of(2)}};
}

std::string invalid_argument_message(const auto& action) {
  try {
    action();
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  ADD_FAILURE() << "no std::invalid_argument thrown";
  return {};
}

TEST(PartitionedReference, DeviceValuesMatchTheArticle) {
  EXPECT_EQ(device_value_of(0), 1.0f);
  EXPECT_EQ(device_value_of(1), 2.0f);
  EXPECT_EQ(device_value_of(7), 8.0f);
}

TEST(PartitionedReference, ScaleByTwoDoublesEveryElementExactly) {
  constexpr std::size_t count = 300'001;  // several parallel_for slices, and an odd tail
  const auto input = seeded(count);
  const auto ranges = three_ranges(count);
  std::vector<float> output(count);
  poison(output);
  apply_partitioned(scale_by_two(), input, ranges, output);

  std::vector<float> expected(count);
  for (std::size_t i = 0; i < count; ++i)
    expected[i] = static_cast<float>(static_cast<double>(input[i]) * 2.0);
  const auto result = verify_elementwise(expected, output, 0);
  EXPECT_TRUE(result.passed()) << result.describe();
  EXPECT_EQ(result.checked, count);
}

TEST(PartitionedReference, AddDeviceValueUsesTheValueOfTheRangeHoldingEachElement) {
  constexpr std::size_t count = 300'001;
  const auto input = seeded(count);
  const auto ranges = three_ranges(count);
  std::vector<float> output(count);
  poison(output);
  apply_partitioned(add_device_value(), input, ranges, output);

  std::vector<float> expected(count);
  for (std::size_t i = 0; i < count; ++i) {
    const int device = i < ranges[1].offset ? 0 : (i < ranges[2].offset ? 1 : 2);
    expected[i] = static_cast<float>(static_cast<double>(input[i]) + (1.0 + device));
  }
  const auto result = verify_elementwise(expected, output, 0);
  EXPECT_TRUE(result.passed()) << result.describe();
  // Right at the boundaries, each side keeps its own device's value.
  const std::size_t boundary = ranges[1].offset;
  EXPECT_EQ(output[boundary - 1], input[boundary - 1] + 1.0f);
  EXPECT_EQ(output[boundary], input[boundary] + 2.0f);
}

TEST(PartitionedReference, RangesMayArriveInAnyOrderAndInterleaveDevices) {
  // Round robin: chunks of 3 over 2 devices, listed out of order, with an empty range mixed in.
  const auto input = seeded(10);
  const std::vector<value_range> ranges{{.offset = 6, .count = 3, .value = device_value_of(0)},
                                        {.offset = 0, .count = 3, .value = device_value_of(0)},
                                        {.offset = 9, .count = 1, .value = device_value_of(1)},
                                        {.offset = 4, .count = 0, .value = 99.0f},
                                        {.offset = 3, .count = 3, .value = device_value_of(1)}};
  std::vector<float> output(10);
  poison(output);
  apply_partitioned(add_device_value(), input, ranges, output);
  for (std::size_t i = 0; i < 10; ++i) {
    const double value = (i / 3) % 2 == 0 ? 1.0 : 2.0;
    EXPECT_EQ(std::bit_cast<std::uint32_t>(output[i]),
              std::bit_cast<std::uint32_t>(static_cast<float>(input[i] + value)))
        << "index " << i;
  }
}

TEST(PartitionedReference, AnUncoveredIndexIsNamed) {
  const auto input = seeded(10);
  std::vector<float> output(10);
  const std::vector<value_range> gap{{.offset = 0, .count = 4, .value = 1.0f},
                                     {.offset = 6, .count = 4, .value = 2.0f}};
  EXPECT_NE(invalid_argument_message([&] {
              apply_partitioned(add_device_value(), input, gap, output);
            }).find("index 4 is not covered"),
            std::string::npos);
  const std::vector<value_range> short_tail{{.offset = 0, .count = 9, .value = 1.0f}};
  EXPECT_NE(invalid_argument_message([&] {
              apply_partitioned(scale_by_two(), input, short_tail, output);
            }).find("index 9 is not covered"),
            std::string::npos);
  EXPECT_NE(invalid_argument_message([&] {
              apply_partitioned(scale_by_two(), input, {}, output);
            }).find("index 0 is not covered"),
            std::string::npos);
}

TEST(PartitionedReference, OverlappingOrOverlongRangesAreRejected) {
  const auto input = seeded(10);
  std::vector<float> output(10);
  const std::vector<value_range> overlap{{.offset = 0, .count = 6, .value = 1.0f},
                                         {.offset = 5, .count = 5, .value = 2.0f}};
  EXPECT_NE(invalid_argument_message([&] {
              apply_partitioned(add_device_value(), input, overlap, output);
            }).find("index 5"),
            std::string::npos);
  const std::vector<value_range> overlong{{.offset = 0, .count = 11, .value = 1.0f}};
  EXPECT_THROW(apply_partitioned(add_device_value(), input, overlong, output),
               std::invalid_argument);
  const std::vector<value_range> beyond{{.offset = 0, .count = 10, .value = 1.0f},
                                        {.offset = 12, .count = 1, .value = 2.0f}};
  EXPECT_THROW(apply_partitioned(add_device_value(), input, beyond, output), std::invalid_argument);
}

TEST(PartitionedReference, InputAndOutputSizesMustMatch) {
  const auto input = seeded(10);
  std::vector<float> output(9);
  const std::vector<value_range> ranges{{.offset = 0, .count = 10, .value = 1.0f}};
  const auto message =
      invalid_argument_message([&] { apply_partitioned(scale_by_two(), input, ranges, output); });
  EXPECT_NE(message.find("10"), std::string::npos) << message;
  EXPECT_NE(message.find("9"), std::string::npos) << message;
}

TEST(PartitionedReference, ANullElementReferenceIsRejected) {
  const auto input = seeded(10);
  std::vector<float> output(10);
  const std::vector<value_range> ranges{{.offset = 0, .count = 10, .value = 1.0f}};
  EXPECT_NE(invalid_argument_message([&] {
              apply_partitioned(nullptr, input, ranges, output);
            }).find("no element reference"),
            std::string::npos);
}

TEST(PartitionedReference, EmptyInputNeedsNoRanges) {
  std::vector<float> output;
  EXPECT_NO_THROW(apply_partitioned(add_device_value(), {}, {}, output));
  const std::vector<value_range> empty_ranges{{.offset = 0, .count = 0, .value = 1.0f}};
  EXPECT_NO_THROW(apply_partitioned(scale_by_two(), {}, empty_ranges, output));
  EXPECT_TRUE(output.empty());
}

}  // namespace
}  // namespace handoff::reference

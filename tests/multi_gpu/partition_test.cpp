// The multi_gpu partitioners: even (the seed's np.array_split), round robin and weighted, and the
// plan checker that every plan a variant uses must pass.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "handoff/patterns/multi_gpu/partition.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

std::vector<std::size_t> counts_of(const partition_plan& plan) {
  std::vector<std::size_t> counts;
  for (const auto& piece : plan.parts)
    counts.push_back(piece.count);
  return counts;
}

std::vector<int> devices_of(const partition_plan& plan) {
  std::vector<int> devices;
  for (const auto& piece : plan.parts)
    devices.push_back(piece.device);
  return devices;
}

// The message of the partition_error that `action` throws; fails the test when it throws none.
template <typename Action>
std::string partition_error_message(Action action) {
  try {
    action();
  } catch (const partition_error& error) {
    return error.what();
  }
  ADD_FAILURE() << "no partition_error thrown";
  return {};
}

constexpr std::size_t large_elements = std::size_t{1} << 28;

TEST(PartitionEven, UnevenSizesPutTheLongerPartsFirstAsArraySplitDoes) {
  // np.array_split(np.arange(10), 3) -> sizes 4, 3, 3
  const auto plan = partition_even(10, 3);
  EXPECT_EQ(plan.elements, 10U);
  EXPECT_EQ(plan.devices, 3);
  EXPECT_EQ(counts_of(plan), (std::vector<std::size_t>{4, 3, 3}));
  EXPECT_EQ(devices_of(plan), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(plan.parts[1], (part{.device = 1, .offset = 4, .count = 3, .local_offset = 0}));
  EXPECT_EQ(plan.parts[2], (part{.device = 2, .offset = 7, .count = 3, .local_offset = 0}));
  EXPECT_EQ(counts_of(partition_even(11, 4)), (std::vector<std::size_t>{3, 3, 3, 2}));
}

TEST(PartitionEven, FewerElementsThanDevicesKeepsEmptyTrailingParts) {
  const auto plan = partition_even(2, 5);
  EXPECT_EQ(counts_of(plan), (std::vector<std::size_t>{1, 1, 0, 0, 0}));
  for (std::size_t index = 2; index < plan.parts.size(); ++index) {
    EXPECT_EQ(plan.parts[index].offset, 2U) << "part " << index;
  }
  EXPECT_NO_THROW(check_plan(plan));
}

TEST(PartitionEven, NoElementsGivesOneEmptyPartPerDevice) {
  const auto plan = partition_even(0, 3);
  EXPECT_EQ(counts_of(plan), (std::vector<std::size_t>{0, 0, 0}));
  EXPECT_EQ(plan.largest_device_share(), 0U);
  EXPECT_NO_THROW(check_plan(plan));
}

TEST(PartitionEven, TwoToThe28OnThreeDevicesSplitsWithoutLosingAnElement) {
  // 2^28 = 3 * 89478485 + 1
  const auto plan = partition_even(large_elements, 3);
  EXPECT_EQ(counts_of(plan), (std::vector<std::size_t>{89478486, 89478485, 89478485}));
  EXPECT_EQ(plan.parts[2].offset, 2 * 89478485U + 1);
  EXPECT_EQ(plan.largest_device_share(), 89478486U);
  EXPECT_NO_THROW(check_plan(plan));
}

TEST(PartitionEven, FewerThanOneDeviceIsAnErrorNamingTheCount) {
  EXPECT_NE(partition_error_message([] { partition_even(10, 0); }).find("got 0"),
            std::string::npos);
  EXPECT_NE(partition_error_message([] { partition_even(10, -2); }).find("-2"), std::string::npos);
}

TEST(PartitionRoundRobin, DealsChunksInTurnAndPacksEachDevicesChunks) {
  // 10 elements in chunks of 3 over 2 devices: [0,3) d0, [3,6) d1, [6,9) d0, [9,10) d1.
  const auto plan = partition_round_robin(10, 2, 3);
  EXPECT_EQ(counts_of(plan), (std::vector<std::size_t>{3, 3, 3, 1}));
  EXPECT_EQ(devices_of(plan), (std::vector<int>{0, 1, 0, 1}));
  EXPECT_EQ(plan.parts[2], (part{.device = 0, .offset = 6, .count = 3, .local_offset = 3}));
  EXPECT_EQ(plan.parts[3], (part{.device = 1, .offset = 9, .count = 1, .local_offset = 3}));
  const auto on_device_0 = plan.parts_on(0);
  ASSERT_EQ(on_device_0.size(), 2U);
  EXPECT_EQ(on_device_0[0].local_offset, 0U);
  EXPECT_EQ(on_device_0[1].local_offset, 3U);  // one chunk in
  EXPECT_EQ(plan.elements_on(0), 6U);
  EXPECT_EQ(plan.elements_on(1), 4U);
  EXPECT_EQ(plan.largest_device_share(), 6U);
}

TEST(PartitionRoundRobin, FewerChunksThanDevicesLeavesTheLastDevicesEmpty) {
  const auto plan = partition_round_robin(5, 4, 2);
  EXPECT_EQ(counts_of(plan), (std::vector<std::size_t>{2, 2, 1}));
  EXPECT_EQ(devices_of(plan), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(plan.elements_on(3), 0U);
  EXPECT_TRUE(plan.parts_on(3).empty());
  EXPECT_NO_THROW(check_plan(plan));
}

TEST(PartitionRoundRobin, NoElementsGivesNoParts) {
  const auto plan = partition_round_robin(0, 3, 4);
  EXPECT_TRUE(plan.parts.empty());
  EXPECT_EQ(plan.devices, 3);
  EXPECT_NO_THROW(check_plan(plan));
}

TEST(PartitionRoundRobin, TwoToThe28OnThreeDevicesInChunksOfAMillion) {
  constexpr std::size_t chunk = 1'000'000;
  const auto plan = partition_round_robin(large_elements, 3, chunk);
  // 268435456 = 268 * 10^6 + 435456: 268 whole chunks and one short one, 269 in all.
  ASSERT_EQ(plan.parts.size(), 269U);
  EXPECT_EQ(plan.parts.back().count, 435456U);
  EXPECT_EQ(plan.parts.back().device, 268 % 3);
  // Chunks 0, 3, ..., 267 are device 0's: 90 whole chunks. Device 1 gets 1, 4, ..., 268: 89 whole
  // chunks and the short one. Device 2 gets 2, 5, ..., 266: 89 whole chunks.
  EXPECT_EQ(plan.elements_on(0), 90 * chunk);
  EXPECT_EQ(plan.elements_on(1), 89 * chunk + 435456);
  EXPECT_EQ(plan.elements_on(2), 89 * chunk);
  EXPECT_EQ(plan.parts.back().local_offset, 89 * chunk);
  EXPECT_NO_THROW(check_plan(plan));
}

TEST(PartitionRoundRobin, BadArgumentsAreErrorsNamingTheValue) {
  EXPECT_NE(partition_error_message([] { partition_round_robin(10, 2, 0); }).find("chunk"),
            std::string::npos);
  EXPECT_NE(partition_error_message([] { partition_round_robin(10, 0, 4); }).find("devices"),
            std::string::npos);
}

TEST(PartitionWeighted, ThreeToOneOfAHundredIsSeventyFiveAndTwentyFive) {
  const std::vector<double> throughputs{3.0e9, 1.0e9};
  const auto plan = partition_weighted(100, throughputs);
  EXPECT_EQ(counts_of(plan), (std::vector<std::size_t>{75, 25}));
  EXPECT_EQ(plan.parts[1].offset, 75U);
  EXPECT_EQ(plan.devices, 2);
}

TEST(PartitionWeighted, EqualWeightsMatchTheEvenPlan) {
  const std::vector<double> equal(4, 2.5e9);
  for (const std::size_t elements : {std::size_t{0}, std::size_t{8}, std::size_t{4000}}) {
    EXPECT_EQ(partition_weighted(elements, equal).parts, partition_even(elements, 4).parts)
        << elements;
  }
  // Uneven sizes too: the leftover elements go to the lowest devices, as array_split puts them.
  EXPECT_EQ(partition_weighted(10, std::vector<double>(3, 1.0)).parts, partition_even(10, 3).parts);
}

TEST(PartitionWeighted, LargestRemainderBreaksTiesTowardTheLowerDevice) {
  // Quotas 2.5, 2.5, 5: one element is left over and devices 0 and 1 tie for it.
  EXPECT_EQ(counts_of(partition_weighted(10, std::vector<double>{1, 1, 2})),
            (std::vector<std::size_t>{3, 2, 5}));
  // Quotas 1.4, 2.8, 2.8: two left over; the larger remainders (devices 1, 2) take them.
  EXPECT_EQ(counts_of(partition_weighted(7, std::vector<double>{1, 2, 2})),
            (std::vector<std::size_t>{1, 3, 3}));
}

TEST(PartitionWeighted, AZeroThroughputDeviceGetsNothingEvenWhenElementsAreLeftOver) {
  // Quotas 0, 3.5, 3.5: device 0 has no remainder claim; device 1 wins the tie.
  const auto plan = partition_weighted(7, std::vector<double>{0.0, 1.0, 1.0});
  EXPECT_EQ(counts_of(plan), (std::vector<std::size_t>{0, 4, 3}));
  EXPECT_EQ(plan.parts[0].offset, 0U);
  EXPECT_EQ(plan.parts[1].offset, 0U);
  EXPECT_NO_THROW(check_plan(plan));
}

TEST(PartitionWeighted, FewerElementsThanDevicesAndNoElements) {
  EXPECT_EQ(counts_of(partition_weighted(2, std::vector<double>{1, 1, 1, 1})),
            (std::vector<std::size_t>{1, 1, 0, 0}));
  EXPECT_EQ(counts_of(partition_weighted(0, std::vector<double>{1, 3})),
            (std::vector<std::size_t>{0, 0}));
}

TEST(PartitionWeighted, TwoToThe28OnThreeDevicesSumsExactly) {
  // 2^28 * (1, 2, 5) / 8 = 2^25, 2^26, 5 * 2^25: exact quotas.
  const auto plan = partition_weighted(large_elements, std::vector<double>{1, 2, 5});
  EXPECT_EQ(counts_of(plan), (std::vector<std::size_t>{std::size_t{1} << 25, std::size_t{1} << 26,
                                                       5 * (std::size_t{1} << 25)}));
  // 2^28 / 3 by equal measured throughputs: one left over, to device 0.
  const auto thirds = partition_weighted(large_elements, std::vector<double>(3, 7.3e10));
  EXPECT_EQ(counts_of(thirds), (std::vector<std::size_t>{89478486, 89478485, 89478485}));
  EXPECT_NO_THROW(check_plan(thirds));
}

TEST(PartitionWeighted, UnusableThroughputsAreErrorsNamingTheValue) {
  EXPECT_NE(partition_error_message([] {
              partition_weighted(10, std::vector<double>{});
            }).find("no device"),
            std::string::npos);
  EXPECT_NE(partition_error_message([] {
              partition_weighted(10, std::vector<double>{1, -2});
            }).find("device 1 is -2"),
            std::string::npos);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(partition_error_message([&] {
              partition_weighted(10, std::vector<double>{nan, 1});
            }).find("nan"),
            std::string::npos);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_NE(partition_error_message([&] {
              partition_weighted(10, std::vector<double>{1, inf});
            }).find("inf"),
            std::string::npos);
  EXPECT_NE(partition_error_message([] {
              partition_weighted(10, std::vector<double>{0, 0});
            }).find("all 2"),
            std::string::npos);
}

TEST(PartitionPlan, EveryGeneratedPlanPassesTheChecker) {
  std::size_t checked = 0;
  for (std::size_t elements = 0; elements <= 40; ++elements) {
    for (int devices = 1; devices <= 5; ++devices) {
      SCOPED_TRACE("elements " + std::to_string(elements) + ", devices " + std::to_string(devices));
      const auto even = partition_even(elements, devices);
      EXPECT_NO_THROW(check_plan(even));
      EXPECT_EQ(even.parts.size(), static_cast<std::size_t>(devices));
      std::vector<double> throughputs;
      for (int device = 0; device < devices; ++device)
        throughputs.push_back(1.0 + device * 0.7);
      EXPECT_NO_THROW(check_plan(partition_weighted(elements, throughputs)));
      checked += 2;
      for (std::size_t chunk = 1; chunk <= 7; ++chunk) {
        const auto dealt = partition_round_robin(elements, devices, chunk);
        EXPECT_NO_THROW(check_plan(dealt)) << "chunk " << chunk;
        std::size_t total = 0;
        for (int device = 0; device < devices; ++device)
          total += dealt.elements_on(device);
        EXPECT_EQ(total, elements) << "chunk " << chunk;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 41U * 5U * 9U);
}

TEST(PartitionPlan, TheCheckerRejectsHandBrokenPlans) {
  const auto good = partition_round_robin(10, 2, 3);
  ASSERT_NO_THROW(check_plan(good));

  auto gap = good;
  gap.parts[1].offset = 4;
  EXPECT_NE(partition_error_message([&] { check_plan(gap); }).find("gap"), std::string::npos);

  auto overlap = good;
  overlap.parts[1].offset = 2;
  EXPECT_NE(partition_error_message([&] { check_plan(overlap); }).find("overlaps"),
            std::string::npos);

  auto out_of_order = good;
  std::swap(out_of_order.parts[0], out_of_order.parts[1]);
  EXPECT_THROW(check_plan(out_of_order), partition_error);

  auto bad_local = good;
  bad_local.parts[2].local_offset = 0;
  EXPECT_NE(partition_error_message([&] { check_plan(bad_local); }).find("local_offset 3"),
            std::string::npos);

  auto bad_device = good;
  bad_device.parts[3].device = 2;
  EXPECT_NE(partition_error_message([&] { check_plan(bad_device); }).find("device 2"),
            std::string::npos);

  auto short_sum = good;
  short_sum.parts.pop_back();
  EXPECT_NE(partition_error_message([&] { check_plan(short_sum); }).find("cover 9 of 10"),
            std::string::npos);

  auto too_long = good;
  too_long.parts[3].count = 2;
  EXPECT_THROW(check_plan(too_long), partition_error);

  auto no_devices = good;
  no_devices.devices = 0;
  EXPECT_THROW(check_plan(no_devices), partition_error);
}

TEST(PartitionPlan, UniformOnlyForOneEqualPartPerDeviceInOrder) {
  EXPECT_TRUE(partition_even(12, 3).uniform());
  EXPECT_TRUE(partition_even(0, 2).uniform());
  EXPECT_FALSE(partition_even(10, 3).uniform());  // 4, 3, 3
  EXPECT_TRUE(partition_round_robin(8, 2, 4).uniform());
  EXPECT_FALSE(partition_round_robin(8, 2, 2).uniform());  // two parts per device
  EXPECT_FALSE(partition_round_robin(4, 2, 4).uniform());  // device 1 holds nothing
  EXPECT_FALSE(partition_weighted(100, std::vector<double>{3, 1}).uniform());
  auto swapped = partition_even(12, 3);
  std::swap(swapped.parts[0].device, swapped.parts[1].device);
  EXPECT_FALSE(swapped.uniform());
}

TEST(PartitionPlan, DeviceQueriesOutsideThePlanAreErrors) {
  const auto plan = partition_even(10, 2);
  EXPECT_NE(partition_error_message([&] { (void)plan.elements_on(2); }).find("device 2"),
            std::string::npos);
  EXPECT_THROW((void)plan.parts_on(-1), partition_error);
}

TEST(Partitioner, NamesRoundTripAndUnknownNamesListTheValidOnes) {
  for (const auto kind : {partitioner::even, partitioner::round_robin, partitioner::weighted}) {
    EXPECT_EQ(parse_partitioner(partitioner_name(kind)), kind);
  }
  EXPECT_EQ(partitioner_name(partitioner::round_robin), "round_robin");
  const auto message = partition_error_message([] { parse_partitioner("roundrobin"); });
  EXPECT_NE(message.find("'roundrobin'"), std::string::npos) << message;
  EXPECT_NE(message.find("even, round_robin, weighted"), std::string::npos) << message;
}

}  // namespace
}  // namespace handoff::patterns::multi_gpu

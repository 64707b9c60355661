// The machine's CPU share over a row (host_cpu_share.hpp): /proc/stat's aggregate line read, and
// the shares between two readings.

#include "harness/host_cpu_share.hpp"

#include <gtest/gtest.h>

namespace handoff::bench {
namespace {

TEST(HostCpuShare, TheAggregateLineIsReadWithItsSteal) {
  const auto times = parse_proc_stat(
      "cpu  100 5 50 800 20 3 2 40 7 0\ncpu0 50 2 25 400 10 1 1 20 3 0\nintr 12345\n");
  ASSERT_TRUE(times.has_value());
  EXPECT_EQ(times->busy, 100u + 5u + 50u + 3u + 2u);
  EXPECT_EQ(times->idle, 800u + 20u);
  EXPECT_EQ(times->steal, 40u);
}

TEST(HostCpuShare, ALineWithoutStealOrNotTheAggregateIsRefused) {
  EXPECT_FALSE(parse_proc_stat("cpu  100 5 50 800 20 3 2\n").has_value());
  EXPECT_FALSE(parse_proc_stat("cpu0 100 5 50 800 20 3 2 40\n").has_value());
  EXPECT_FALSE(parse_proc_stat("cpu  100 five 50 800 20 3 2 40\n").has_value());
  EXPECT_FALSE(parse_proc_stat("").has_value());
}

TEST(HostCpuShare, SharesAreOfTheTicksBetweenTwoReadings) {
  const host_cpu_times before{.busy = 100, .idle = 800, .steal = 40};
  const host_cpu_times after{.busy = 160, .idle = 820, .steal = 60};
  const auto share = share_between(before, after);
  ASSERT_TRUE(share.has_value());
  EXPECT_DOUBLE_EQ(share->busy, 0.6);
  EXPECT_DOUBLE_EQ(share->steal, 0.2);
  EXPECT_FALSE(share_between(before, before).has_value()) << "no tick passed";
  EXPECT_FALSE(share_between(after, before).has_value()) << "time does not run backwards";
}

TEST(HostCpuShare, ThisMachinesCountersAreRead) {
  const auto now = read_host_cpu_times();
  ASSERT_TRUE(now.has_value()) << "/proc/stat has an aggregate cpu line on Linux";
  EXPECT_GT(now->busy + now->idle, 0u);
}

}  // namespace
}  // namespace handoff::bench

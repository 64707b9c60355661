// The multi_gpu table's floors and gather figures, on CPU: the floor terms of each row equal the
// counters a real 4-GPU H200 run of the bench-side model reported
// (reports/tests/fixtures/real/h200x4-multi_gpu.json), and the gather figures follow the plan.

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "handoff/patterns/multi_gpu/figures.hpp"
#include "handoff/patterns/multi_gpu/variants.hpp"

namespace handoff::multi_gpu_tests {
namespace {

using namespace patterns::multi_gpu;
using patterns::compute_target;

constexpr std::size_t headline = std::size_t{1} << 28;

std::map<std::string, double> floor_counters(std::string_view variant, int gpus, partitioner kind,
                                             run_scope scope) {
  const auto& row = patterns::find_row(multi_gpu_variants(), variant);
  const multi_gpu_point at{{"scale_by_two", gpus, kind, headline, std::size_t{1} << 22}, scope};
  const auto floor = row.floor(at, compute_target::device, {});
  std::map<std::string, double> counters;
  for (const auto& [ceiling, bytes] : floor.bytes)
    counters["floor_bytes." + ceiling] = bytes;
  for (const auto& [ceiling, events] : floor.events)
    counters["floor_events." + ceiling] = events;
  EXPECT_TRUE(floor.seconds.empty());
  EXPECT_FALSE(floor.overlapped);
  return counters;
}

using counters = std::map<std::string, double>;

TEST(MultiGpuFloors, MatchTheBenchSideModelsCounters) {
  const auto even = partitioner::even;
  EXPECT_EQ(floor_counters("kernel_only", 1, even, run_scope::resident),
            (counters{{"floor_bytes.hbm_device_copy", 2147483648.0}}));
  EXPECT_EQ(floor_counters("kernel_only", 2, even, run_scope::from_host),
            (counters{{"floor_bytes.hbm_device_copy", 1073741824.0},
                      {"floor_bytes.pcie_h2d_pinned_each_of_2_gpus", 536870912.0}}));
  EXPECT_EQ(floor_counters("kernel_only", 4, partitioner::round_robin, run_scope::resident),
            (counters{{"floor_bytes.hbm_device_copy", 536870912.0}}));
  EXPECT_EQ(floor_counters("p2p_gather", 4, partitioner::round_robin, run_scope::resident),
            (counters{{"floor_bytes.hbm_device_copy", 536870912.0},
                      {"floor_bytes.p2p_peer_access_on", 805306368.0}}));
  EXPECT_EQ(floor_counters("nccl_allgather", 1, even, run_scope::gather),
            (counters{{"floor_bytes.hbm_device_copy", 2147483648.0}}));
  EXPECT_EQ(floor_counters("nccl_allgather", 1, even, run_scope::from_host),
            (counters{{"floor_bytes.hbm_device_copy", 4294967296.0},
                      {"floor_bytes.pcie_h2d_pinned", 1073741824.0}}));
  EXPECT_EQ(floor_counters("nccl_allgather", 2, even, run_scope::gather),
            (counters{{"floor_bytes.p2p_peer_access_on", 536870912.0}}));
  // Into windows or not, an all-gather moves the same bytes over the same links.
  EXPECT_EQ(floor_counters("nccl_allgather_window", 2, even, run_scope::gather),
            (counters{{"floor_bytes.p2p_peer_access_on", 536870912.0}}));
  EXPECT_EQ(floor_counters("nccl_allgather", 4, even, run_scope::from_host),
            (counters{{"floor_bytes.hbm_device_copy", 536870912.0},
                      {"floor_bytes.p2p_peer_access_on", 805306368.0},
                      {"floor_bytes.pcie_h2d_pinned_each_of_4_gpus", 268435456.0}}));
}

TEST(MultiGpuFloors, TheArticlesLoopIsPricedOneDeviceAfterTheOther) {
  const double array = 4.0 * headline;
  EXPECT_EQ(floor_counters("host_gather", 2, partitioner::even, run_scope::from_host),
            (counters{{"floor_bytes.pcie_h2d_pageable", array},
                      {"floor_events.kernel_launch_sync", 2},
                      {"floor_bytes.pcie_d2h_pageable", array},
                      {"floor_bytes.shm_memcpy_one_thread", array},
                      {"floor_bytes.hbm_device_copy", 2 * array}}));
  EXPECT_EQ(floor_counters("host_gather", 2, partitioner::even, run_scope::gather),
            (counters{{"floor_events.kernel_launch_sync", 0},
                      {"floor_bytes.pcie_d2h_pageable", array},
                      {"floor_bytes.shm_memcpy_one_thread", array}}));
  EXPECT_EQ(floor_counters("host_gather_pinned", 4, partitioner::even, run_scope::gather),
            (counters{{"floor_bytes.pcie_d2h_pinned", array / 4}}));
}

TEST(MultiGpuFigures, GatherFiguresFollowThePlanInScopeGatherOnly) {
  const auto plan = partition_even(1000, 4);
  const run_totals two_runs{
      .runs = 2, .seconds = 2e-3, .busy_seconds = {}, .slowest_busy_seconds = 0};
  std::map<std::string, double> figures;
  for (const auto& figure : gather_figures(plan, gather_kind::nccl, run_scope::gather, two_runs))
    figures[figure.name] = figure.value;
  EXPECT_DOUBLE_EQ(figures.at("gather_bytes_per_second"), 3000.0 / 1e-3);
  EXPECT_DOUBLE_EQ(figures.at("algbw"), 4000.0 / 1e-3);
  EXPECT_DOUBLE_EQ(figures.at("busbw"), 3000.0 / 1e-3);
  EXPECT_EQ(figures.at("all_gather_collective"), 1);
  EXPECT_TRUE(gather_figures(plan, gather_kind::nccl, run_scope::resident, two_runs).empty());
  EXPECT_TRUE(gather_figures(plan, gather_kind::host_pinned, run_scope::gather, two_runs).empty());
  EXPECT_EQ(gather_link_bytes(plan, gather_kind::peer), 4.0 * 750);
  EXPECT_EQ(gather_link_bytes(partition_even(1000, 1), gather_kind::peer), 0.0);
}

TEST(MultiGpuFigures, CoordinationShareIsTheTimeOutsideEachRunsSlowestDevice) {
  run_totals totals;
  totals.add(1.25e-3, {1.0e-3, 0.8e-3});
  totals.add(1.25e-3, {0.9e-3, 1.0e-3});
  ASSERT_TRUE(coordination_share(totals).has_value());
  EXPECT_NEAR(*coordination_share(totals), 0.2, 1e-12);
  EXPECT_FALSE(
      coordination_share(
          run_totals{.runs = 2, .seconds = 2e-3, .busy_seconds = {}, .slowest_busy_seconds = 0})
          .has_value());
  run_totals busier_than_the_run;
  busier_than_the_run.add(1.0e-3, {1.000001e-3});
  EXPECT_EQ(coordination_share(busier_than_the_run), 0.0);
}

}  // namespace
}  // namespace handoff::multi_gpu_tests

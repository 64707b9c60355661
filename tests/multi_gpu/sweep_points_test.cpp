// Each multi_gpu row says for itself where it is measured (its measured_at), in which benchmark
// family and from how many GPUs; handoff_bench only walks the sweep. These pin what the rows say.

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "handoff/patterns/multi_gpu/variants.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

multi_gpu_point point(const char* workload, partitioner kind, run_scope scope, bool headline) {
  return {{workload, 2, kind, 4099, 256}, scope, headline};
}

bool measured(std::string_view variant, const multi_gpu_point& at) {
  return is_measured_at(find_row(multi_gpu_variants(), variant), at);
}

TEST(MultiGpuSweepPoints, KernelOnlyIsTheScalingCurve) {
  for (const bool headline : {true, false}) {
    for (const auto kind : {partitioner::even, partitioner::round_robin, partitioner::weighted})
      EXPECT_TRUE(
          measured("kernel_only", point("scale_by_two", kind, run_scope::resident, headline)));
  }
  EXPECT_TRUE(measured("kernel_only",
                       point("scale_by_two", partitioner::even, run_scope::from_host, true)));
  EXPECT_FALSE(measured("kernel_only",
                        point("scale_by_two", partitioner::even, run_scope::from_host, false)));
  EXPECT_FALSE(measured("kernel_only",
                        point("scale_by_two", partitioner::weighted, run_scope::from_host, true)));
  EXPECT_FALSE(
      measured("kernel_only", point("scale_by_two", partitioner::even, run_scope::gather, true)));
}

TEST(MultiGpuSweepPoints, TheOtherLaunchPathsAreAtTheHeadlineWithTheEvenPlan) {
  for (const auto* variant : {"kernel_only_threads", "kernel_only_host_join"}) {
    EXPECT_TRUE(
        measured(variant, point("scale_by_two", partitioner::even, run_scope::resident, true)));
    EXPECT_TRUE(
        measured(variant, point("scale_by_two", partitioner::even, run_scope::from_host, true)));
    EXPECT_FALSE(
        measured(variant, point("scale_by_two", partitioner::even, run_scope::resident, false)));
    EXPECT_FALSE(measured(
        variant, point("scale_by_two", partitioner::round_robin, run_scope::resident, true)));
    EXPECT_FALSE(
        measured(variant, point("scale_by_two", partitioner::even, run_scope::gather, true)));
  }
}

TEST(MultiGpuSweepPoints, AGatherIsAtTheHeadlineEveryScopeWithTheEvenPlanResidentOtherwise) {
  for (const auto scope : {run_scope::gather, run_scope::resident, run_scope::from_host}) {
    EXPECT_TRUE(measured("host_gather", point("scale_by_two", partitioner::even, scope, true)));
    EXPECT_FALSE(measured("host_gather", point("scale_by_two", partitioner::even, scope, false)));
    EXPECT_EQ(measured("nccl_allgather", point("scale_by_two", partitioner::weighted, scope, true)),
              scope == run_scope::resident);
  }
}

TEST(MultiGpuSweepPoints, APlacementCheckHasTheFromHostRowsOnly) {
  for (const auto& row : multi_gpu_variants()) {
    const bool launch_path =
        row.name == "kernel_only_threads" || row.name == "kernel_only_host_join";
    EXPECT_EQ(is_measured_at(
                  row, point("add_device_value", partitioner::even, run_scope::from_host, true)),
              !launch_path)
        << row.name;
    for (const auto scope : {run_scope::gather, run_scope::resident})
      EXPECT_FALSE(is_measured_at(row, point("add_device_value", partitioner::even, scope, true)))
          << row.name;
  }
}

TEST(MultiGpuSweepPoints, EachRowNamesItsFamilyAndTheGatherBetweenDevicesNeedsTwo) {
  std::map<std::string, std::string> families;
  std::map<std::string, int> fewest_gpus;
  for (const auto& row : multi_gpu_variants()) {
    EXPECT_FALSE(row.family.empty())
        << row.name << " names no family: its rows would fall in one named \"multi_gpu/\"";
    families[std::string(row.name)] = std::string(row.family);
    fewest_gpus[std::string(row.name)] = row.min_gpus;
  }
  EXPECT_EQ(families["kernel_only_host_join"], "kernel_only");
  EXPECT_EQ(families["host_gather_pinned"], "host_gather");
  EXPECT_EQ(families["nccl_allgather_window"], "nccl_allgather_window");
  EXPECT_EQ(fewest_gpus["host_gather"], 0);
  for (const auto* between_devices : {"p2p_gather", "nccl_allgather", "nccl_allgather_window"})
    EXPECT_EQ(fewest_gpus[between_devices], 2) << between_devices;
}

}  // namespace
}  // namespace handoff::patterns::multi_gpu

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "harness/ceiling_summary.hpp"
#include "harness/results_annotation.hpp"
#include "harness/scaling_summary.hpp"

namespace handoff::bench {
namespace {

std::string multi_gpu_name(int gpus, const std::string& prefix = "multi_gpu") {
  return prefix + "/kernel_only/workload:scale_by_two/gpus:" + std::to_string(gpus) +
         "/partitioner:even/elements:268435456/scope:resident/manual_time";
}

measured_run multi_gpu_run(int gpus, double seconds, const std::string& prefix = "multi_gpu") {
  return {multi_gpu_name(gpus, prefix), seconds, {}};
}

const scaling_row& row_named(const std::vector<scaling_row>& rows, const std::string& name) {
  const auto found = std::ranges::find(rows, name, &scaling_row::name);
  if (found == rows.end()) throw std::out_of_range("no scaling row named " + name);
  return *found;
}

TEST(ScalingAxis, ReadsTheGpuCountOfAName) {
  EXPECT_EQ(gpus_axis_of(multi_gpu_name(2)), 2);
  EXPECT_EQ(gpus_axis_of(multi_gpu_name(1)), 1);
  EXPECT_EQ(gpus_axis_of("multi_gpu/host_gather/gpus:16"), 16);
  EXPECT_EQ(gpus_axis_of("multi_gpu_mpi/nccl_allgather/gpus:8/manual_time"), 8);
}

TEST(ScalingAxis, ANameWithoutTheAxisHasNone) {
  EXPECT_EQ(gpus_axis_of("elementwise/gpu_resident/elements:1024/manual_time"), std::nullopt);
  EXPECT_EQ(gpus_axis_of(""), std::nullopt);
}

TEST(ScalingAxis, MalformedCountsAreNotAnAxis) {
  EXPECT_EQ(gpus_axis_of("multi_gpu/x/gpus:0/manual_time"), std::nullopt);
  EXPECT_EQ(gpus_axis_of("multi_gpu/x/gpus:x/manual_time"), std::nullopt);
  EXPECT_EQ(gpus_axis_of("multi_gpu/x/gpus:/manual_time"), std::nullopt);
  EXPECT_EQ(gpus_axis_of("multi_gpu/x/gpus:-2/manual_time"), std::nullopt);
  EXPECT_EQ(gpus_axis_of("multi_gpu/x/gpus:2x/manual_time"), std::nullopt);
  EXPECT_EQ(gpus_axis_of("multi_gpu/x/gpus:02/manual_time"), std::nullopt);
  EXPECT_EQ(gpus_axis_of("multi_gpu/x/gpus:99999999999999999999"), std::nullopt);
  EXPECT_EQ(gpus_axis_of("multi_gpu/x/gpus:2/gpus:4"), std::nullopt);
}

TEST(ScalingAxis, OtherAxesThatStartAlikeDoNotMatch) {
  EXPECT_EQ(gpus_axis_of("multi_gpu_mpi/x/gpus_per_node:2/manual_time"), std::nullopt);
  EXPECT_EQ(gpus_axis_of("multi_gpu/x/max_gpus:2/manual_time"), std::nullopt);
  EXPECT_EQ(gpus_axis_of("multi_gpu/x/gpus_per_node:2/gpus:4"), 4);
}

TEST(ScalingSummary, SpeedupAndEfficiencyAgainstTheMedianOneGpuRun) {
  const std::vector<measured_run> runs = {
      // One GPU: repetitions 0.100, 0.500 (noisy) and 0.080; the median is 0.100.
      multi_gpu_run(1, 0.100),
      multi_gpu_run(1, 0.500),
      multi_gpu_run(1, 0.080),
      // Two GPUs: the median of 0.060, 0.050, 0.001 is 0.050.
      multi_gpu_run(2, 0.060),
      multi_gpu_run(2, 0.050),
      multi_gpu_run(2, 0.001),
      multi_gpu_run(4, 0.040),
  };
  const auto rows = scaling_from(runs);
  ASSERT_EQ(rows.size(), 3u);

  const scaling_row one = row_named(rows, multi_gpu_name(1));
  EXPECT_EQ(one.gpus, 1);
  EXPECT_EQ(one.baseline_name, multi_gpu_name(1));
  EXPECT_DOUBLE_EQ(one.speedup(), 1.0);
  EXPECT_DOUBLE_EQ(one.efficiency(), 1.0);

  const scaling_row two = row_named(rows, multi_gpu_name(2));
  EXPECT_EQ(two.baseline_name, multi_gpu_name(1));
  EXPECT_DOUBLE_EQ(two.baseline_seconds, 0.100);
  EXPECT_DOUBLE_EQ(two.measured_seconds, 0.050);
  EXPECT_DOUBLE_EQ(two.speedup(), 2.0);
  EXPECT_DOUBLE_EQ(two.efficiency(), 1.0);

  const scaling_row four = row_named(rows, multi_gpu_name(4));
  EXPECT_DOUBLE_EQ(four.speedup(), 0.100 / 0.040);
  EXPECT_DOUBLE_EQ(four.efficiency(), 0.100 / (4 * 0.040));
}

TEST(ScalingSummary, ARowWithoutAOneGpuBaselineGetsNoFigure) {
  const std::vector<measured_run> runs = {
      multi_gpu_run(2, 0.050),
      multi_gpu_run(4, 0.030),
      {"elementwise/gpu_resident/elements:1024/manual_time", 0.001, {}},
  };
  EXPECT_TRUE(scaling_from(runs).empty());
}

TEST(ScalingSummary, OnlyTheConfigurationThatHasABaselineGetsRows) {
  const std::vector<measured_run> runs = {
      multi_gpu_run(1, 0.100),
      multi_gpu_run(2, 0.060),
      {"multi_gpu/kernel_only/workload:add_device_value/gpus:2/partitioner:even/manual_time",
       0.055,
       {}},
  };
  const auto rows = scaling_from(runs);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, multi_gpu_name(1));
  EXPECT_EQ(rows[1].name, multi_gpu_name(2));
}

TEST(ScalingSummary, AnotherPartitionerScalesAgainstTheEvenOneGpuRow) {
  const std::string weighted_two =
      "multi_gpu/kernel_only/workload:scale_by_two/gpus:2/partitioner:weighted/elements:268435456/"
      "scope:resident/manual_time";
  const std::vector<measured_run> runs = {
      multi_gpu_run(1, 0.100),
      {weighted_two, 0.055, {}},
  };
  const scaling_row weighted = row_named(scaling_from(runs), weighted_two);
  EXPECT_EQ(weighted.baseline_name, multi_gpu_name(1));
  EXPECT_DOUBLE_EQ(weighted.speedup(), 0.100 / 0.055);
}

TEST(ScalingSummary, MpiRowsPairWithTheMpiOneGpuRow) {
  const std::vector<measured_run> runs = {
      multi_gpu_run(1, 0.100),
      multi_gpu_run(1, 0.200, "multi_gpu_mpi"),
      multi_gpu_run(2, 0.080, "multi_gpu_mpi"),
  };
  const auto rows = scaling_from(runs);
  ASSERT_EQ(rows.size(), 3u);
  const scaling_row mpi_two = row_named(rows, multi_gpu_name(2, "multi_gpu_mpi"));
  EXPECT_EQ(mpi_two.baseline_name, multi_gpu_name(1, "multi_gpu_mpi"));
  EXPECT_DOUBLE_EQ(mpi_two.baseline_seconds, 0.200);
  EXPECT_DOUBLE_EQ(mpi_two.speedup(), 0.200 / 0.080);
}

TEST(ScalingSummary, EachConfigurationsRowsSitTogetherInGpuOrder) {
  const std::string even = "multi_gpu/host_gather/gpus:";
  const std::string weighted_tail = "/partitioner:weighted";
  const std::vector<measured_run> runs = {
      {even + "8", 0.02, {}},
      {even + "1", 0.10, {}},
      {even + "1" + weighted_tail, 0.10, {}},
      {even + "2", 0.06, {}},
      {even + "2" + weighted_tail, 0.05, {}},
  };
  const auto rows = scaling_from(runs);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].name, even + "1");
  EXPECT_EQ(rows[1].name, even + "2");
  EXPECT_EQ(rows[2].name, even + "8");
  EXPECT_EQ(rows[3].name, even + "1" + weighted_tail);
  EXPECT_EQ(rows[4].name, even + "2" + weighted_tail);
}

TEST(ScalingSummary, PrintsOneLinePerRowAfterTheEfficiencySection) {
  const std::vector<measured_run> runs = {
      {"ceilings/hbm_device_copy/manual_time", 1.0, {{"bytes", 4e12}}},
      multi_gpu_run(1, 0.100),
      multi_gpu_run(2, 0.0625),
      multi_gpu_run(4, 0.050, "multi_gpu_mpi"),
  };
  std::ostringstream printed;
  print_summary(printed, runs);
  const std::string text = printed.str();
  const auto heading = text.find(
      "\nScaling against one GPU: speedup = T(1 GPU) / T(N GPUs), efficiency = speedup / N\n");
  ASSERT_NE(heading, std::string::npos) << text;
  EXPECT_GT(heading, text.find("Efficiency: floor")) << text;
  EXPECT_NE(text.find(multi_gpu_name(2)), std::string::npos) << text;
  EXPECT_NE(text.find("62500.000 us   speedup    1.60x   efficiency   80.0%"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("speedup    1.00x"), std::string::npos) << text;  // gpus:1 is its own
  EXPECT_NE(text.find("50000.000 us   n/a (its gpus:1 row did not run)"), std::string::npos)
      << text;
}

TEST(ScalingSummary, OneGpuSaysScalingNeedsTwo) {
  const std::vector<measured_run> runs = {multi_gpu_run(1, 0.100)};
  std::ostringstream printed;
  print_scaling(printed, runs);
  EXPECT_EQ(printed.str(),
            "\nScaling against one GPU: needs rows at two or more GPUs; this run measured one\n");
}

TEST(ScalingSummary, PrintsNothingWithoutAGpusAxis) {
  const std::vector<measured_run> runs = {
      {"elementwise/gpu_resident/elements:1024/manual_time", 0.001, {}},
      {"multi_gpu/x/gpus_per_node:2/manual_time", 0.001, {}},
  };
  std::ostringstream printed;
  print_scaling(printed, runs);
  EXPECT_EQ(printed.str(), "");
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++count;
  return count;
}

TEST(ScalingAnnotation, WritesEfficiencySpeedupAndBaselineIntoTheJson) {
  const std::string path = ::testing::TempDir() + "handoff_scaling_annotation_test.json";
  {
    std::ofstream out(path);
    out << R"({"context": {}, "benchmarks": [)"
        << R"({"name": ")" << multi_gpu_name(1) << R"(", "run_type": "iteration"},)"
        << R"({"name": ")" << multi_gpu_name(4) << R"(", "run_type": "iteration"},)"
        << R"({"name": ")" << multi_gpu_name(4) << R"(_median", "run_type": "aggregate"},)"
        << R"({"name": ")" << multi_gpu_name(2, "multi_gpu_mpi")
        << R"(", "run_type": "iteration"}]})";
  }
  const std::vector<measured_run> runs = {
      multi_gpu_run(1, 0.100),
      multi_gpu_run(4, 0.050),
      multi_gpu_run(2, 0.050, "multi_gpu_mpi"),
  };
  annotate_results(path, runs);
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  EXPECT_NE(text.find(R"("scaling_efficiency": 0.5)"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("scaling_speedup": 2.0)"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("scaling_efficiency": 1.0)"), std::string::npos) << text;
  EXPECT_EQ(occurrences(text, R"("scaling_baseline": ")" + multi_gpu_name(1) + "\""), 2u) << text;
  // Only the two single-process iteration rows: not the aggregate, and not the MPI row, which has
  // no MPI gpus:1 row to pair with.
  EXPECT_EQ(occurrences(text, "scaling_efficiency"), 2u) << text;
  EXPECT_EQ(occurrences(text, "scaling_speedup"), 2u) << text;
}

}  // namespace
}  // namespace handoff::bench

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "harness/ceiling_summary.hpp"
#include "harness/results_annotation.hpp"

namespace handoff::bench {
namespace {

measured_run ceiling_run(const std::string& name, double seconds, double bytes) {
  return {"ceilings/" + name + "/manual_time", seconds, {{"bytes", bytes}}};
}

TEST(CeilingSummary, NameOfACeilingBenchmark) {
  EXPECT_EQ(ceiling_name_of("ceilings/pcie_h2d_pinned/manual_time"), "pcie_h2d_pinned");
  EXPECT_EQ(ceiling_name_of("ceilings/pipe_between_processes"), "pipe_between_processes");
  EXPECT_EQ(ceiling_name_of("elementwise/gpu_resident/elements:1024"), "");
}

TEST(CeilingSummary, BandwidthAndLatencyCeilingsUseTheMedianRepetition) {
  const std::vector<measured_run> runs = {
      ceiling_run("pcie_h2d_pinned", 0.010, 1e9),
      ceiling_run("pcie_h2d_pinned", 0.020, 1e9),
      ceiling_run("pcie_h2d_pinned", 0.011, 1e9),
      {"ceilings/kernel_launch_async/manual_time", 0.003, {{"events", 1000}}},
  };
  const auto ceilings = ceilings_from(runs);
  ASSERT_TRUE(ceilings.contains("pcie_h2d_pinned"));
  EXPECT_FALSE(ceilings.at("pcie_h2d_pinned").is_latency);
  EXPECT_DOUBLE_EQ(ceilings.at("pcie_h2d_pinned").value, 1e9 / 0.011);
  EXPECT_TRUE(ceilings.at("kernel_launch_async").is_latency);
  EXPECT_DOUBLE_EQ(ceilings.at("kernel_launch_async").value, 3e-6);
}

TEST(CeilingSummary, ACeilingIsPricedFromItsQuickestSample) {
  const std::vector<measured_run> runs = {
      {"ceilings/pcie_d2h_pinned/bytes:268435456/manual_time",
       0.0050,
       {{"bytes", 268435456}, {"fastest_seconds", 0.0049}}},
      {"ceilings/kernel_launch_async/manual_time",
       0.003,
       {{"events", 1000}, {"fastest_seconds", 0.0025}}},
      {"elementwise/gpu_transfers_pinned/elements:1/manual_time",
       0.0049,
       {{"fastest_seconds", 0.0048}, {"floor_bytes.pcie_d2h_pinned", 268435456}}},
  };
  const auto ceilings = ceilings_from(runs);
  EXPECT_DOUBLE_EQ(ceilings.at("pcie_d2h_pinned").value, 268435456 / 0.0049);
  EXPECT_DOUBLE_EQ(ceilings.at("kernel_launch_async").value, 2.5e-6);
  // A row as quick as the ceiling's median, but not as its quickest sample, is not above it.
  const auto rows = efficiencies_from(runs, ceilings);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(*rows[0].floor_seconds, 0.0049);
  EXPECT_FALSE(rows[0].suspect());
}

TEST(CeilingSummary, ASweptCeilingIsTheBestOfItsSweep) {
  const std::vector<measured_run> runs = {
      {"ceilings/pcie_h2d_pageable/bytes:4194304/manual_time", 0.001, {{"bytes", 16e6}}},
      {"ceilings/pcie_h2d_pageable/bytes:268435456/manual_time", 0.030, {{"bytes", 268e6}}},
      {"ceilings/kernel_launch_sync/manual_time", 0.009, {{"events", 1000}}},
      {"ceilings/kernel_launch_sync/variant:other/manual_time", 0.008, {{"events", 1000}}},
  };
  const auto ceilings = ceilings_from(runs);
  EXPECT_DOUBLE_EQ(ceilings.at("pcie_h2d_pageable").value, 16e6 / 0.001);
  EXPECT_DOUBLE_EQ(ceilings.at("kernel_launch_sync").value, 8e-6);
}

TEST(CeilingSummary, BytesAreNeverPricedAtTheRateOfASmallerSize) {
  // In cache at 1 MiB, from memory above: the best rate must not price 84 MB.
  const std::vector<measured_run> runs = {
      {"ceilings/shm_memcpy_one_thread/bytes:1048576/manual_time",
       1048576 / 27.6e9,
       {{"bytes", 1048576}}},
      {"ceilings/shm_memcpy_one_thread/bytes:67108864/manual_time",
       67108864 / 11.5e9,
       {{"bytes", 67108864}}},
      {"queued_worker/streamed/items:10", 0.0080, {{"floor_bytes.shm_memcpy_one_thread", 84e6}}},
      {"queued_worker/streamed/items:1", 0.0001, {{"floor_bytes.shm_memcpy_one_thread", 1.2e6}}},
  };
  const auto ceilings = ceilings_from(runs);
  const auto& memcpy = ceilings.at("shm_memcpy_one_thread");
  EXPECT_DOUBLE_EQ(memcpy.value, 27.6e9);
  ASSERT_EQ(memcpy.rate_by_bytes.size(), 2u);
  EXPECT_DOUBLE_EQ(memcpy.rate_for(84e6), 11.5e9);
  EXPECT_DOUBLE_EQ(memcpy.rate_for(1.2e6), 27.6e9);
  EXPECT_DOUBLE_EQ(memcpy.rate_for(8e6), 27.6e9);  // 1 MiB is the largest size not above it
  EXPECT_DOUBLE_EQ(memcpy.rate_for(1e3), 27.6e9);  // below every size: the best of them
  EXPECT_DOUBLE_EQ(memcpy.rate_for(1e12), 11.5e9);
  // A larger size's better rate still counts: the floor stays as strict as the sweep allows.
  auto with_fast_large = ceilings.at("shm_memcpy_one_thread");
  with_fast_large.rate_by_bytes.emplace_back(1e9, 12.5e9);
  EXPECT_DOUBLE_EQ(with_fast_large.rate_for(84e6), 12.5e9);
  const auto rows = efficiencies_from(runs, ceilings);
  ASSERT_EQ(rows.size(), 2u);
  const auto large =
      std::ranges::find(rows, "queued_worker/streamed/items:10", &efficiency_row::name);
  ASSERT_NE(large, rows.end());
  ASSERT_TRUE(large->floor_seconds);
  EXPECT_NEAR(*large->floor_seconds, 84e6 / 11.5e9, 1e-12);
}

TEST(CeilingSummary, FloorSumsTheStagesOverTheirCeilings) {
  const std::vector<measured_run> runs = {
      ceiling_run("pcie_h2d_pinned", 1.0, 50e9),
      ceiling_run("pcie_d2h_pinned", 1.0, 25e9),
      {"elementwise/gpu_transfers_pinned/elements:10",
       0.004,
       {{"floor_bytes.pcie_h2d_pinned", 100e6}, {"floor_bytes.pcie_d2h_pinned", 50e6}}},
  };
  const auto rows = efficiencies_from(runs, ceilings_from(runs));
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_TRUE(rows[0].floor_seconds.has_value());
  EXPECT_DOUBLE_EQ(*rows[0].floor_seconds, 100e6 / 50e9 + 50e6 / 25e9);
  EXPECT_DOUBLE_EQ(rows[0].efficiency(), 0.004 / 0.004);
  EXPECT_FALSE(rows[0].suspect());
}

TEST(CeilingSummary, OverlappedStagesTakeTheSlowestInsteadOfTheSum) {
  const std::vector<measured_run> runs = {
      ceiling_run("pcie_h2d_pinned", 1.0, 50e9),
      ceiling_run("pcie_d2h_pinned", 1.0, 25e9),
      {"tensor_transfer/shm_pinned/bytes:10",
       0.004,
       {{"floor_overlapped", 1},
        {"floor_bytes.pcie_h2d_pinned", 100e6},
        {"floor_bytes.pcie_d2h_pinned", 50e6}}},
  };
  const auto rows = efficiencies_from(runs, ceilings_from(runs));
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_TRUE(rows[0].floor_seconds.has_value());
  EXPECT_DOUBLE_EQ(*rows[0].floor_seconds, std::max(100e6 / 50e9, 50e6 / 25e9));
  EXPECT_DOUBLE_EQ(rows[0].efficiency(), 0.002 / 0.004);
}

TEST(CeilingSummary, MeasuredStageSecondsJoinTheFloor) {
  const std::vector<measured_run> runs = {
      ceiling_run("pcie_h2d_pinned", 1.0, 50e9),
      {"pool_prep/shared_gpu/chunks:10",
       0.010,
       {{"floor_bytes.pcie_h2d_pinned", 100e6}, {"floor_seconds.prep", 0.003}}},
      {"pool_prep/shared_gpu/chunks:20",
       0.010,
       {{"floor_overlapped", 1},
        {"floor_bytes.pcie_h2d_pinned", 100e6},
        {"floor_seconds.prep", 0.003}}},
  };
  const auto rows = efficiencies_from(runs, ceilings_from(runs));
  ASSERT_EQ(rows.size(), 2u);
  ASSERT_TRUE(rows[0].floor_seconds.has_value());
  EXPECT_DOUBLE_EQ(*rows[0].floor_seconds, 100e6 / 50e9 + 0.003);
  ASSERT_TRUE(rows[1].floor_seconds.has_value());
  EXPECT_DOUBLE_EQ(*rows[1].floor_seconds, 0.003);
}

TEST(CeilingSummary, AboveTheCeilingIsSuspect) {
  const std::vector<measured_run> runs = {
      ceiling_run("hbm_device_copy", 1.0, 4e12),
      {"elementwise/gpu_resident/elements:10", 1e-3, {{"floor_bytes.hbm_device_copy", 8e9}}},
  };
  const auto rows = efficiencies_from(runs, ceilings_from(runs));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NEAR(rows[0].efficiency(), 2.0, 1e-12);
  EXPECT_TRUE(rows[0].suspect());
  std::ostringstream printed;
  print_summary(printed, runs);
  EXPECT_NE(printed.str().find("SUSPECT: above the ceiling"), std::string::npos) << printed.str();
  // One process of several prices the row from its own ceilings: the merge decides.
  std::ostringstream one_of_three;
  print_summary(one_of_three, runs, 3);
  EXPECT_EQ(one_of_three.str().find("SUSPECT:"), std::string::npos) << one_of_three.str();
  EXPECT_NE(one_of_three.str().find("above this process's ceilings"), std::string::npos)
      << one_of_three.str();
}

TEST(CeilingSummary, ARowWhoseIntervalReachesItsFloorIsNotSuspect) {
  // Its floor is 1.02 ms: the median beats it by 2%, the slow end of its interval does not.
  const auto row_with_high = [](double ci_high) {
    const std::vector<measured_run> runs = {
        ceiling_run("hbm_device_copy", 1.0, 4e12),
        {"elementwise/gpu_resident/elements:10",
         1e-3,
         {{"floor_bytes.hbm_device_copy", 4.08e9}, {"ci_high", ci_high}}},
    };
    return efficiencies_from(runs, ceilings_from(runs)).at(0);
  };
  const auto within = row_with_high(1.03e-3);
  EXPECT_NEAR(within.efficiency(), 1.02, 1e-9);
  EXPECT_FALSE(within.suspect());
  EXPECT_TRUE(row_with_high(1.01e-3).suspect());
}

TEST(CeilingSummary, MissingCeilingIsNamedNotGuessed) {
  const std::vector<measured_run> runs = {
      {"elementwise/gpu_resident/elements:10", 1e-3, {{"floor_bytes.hbm_device_copy", 8e9}}},
  };
  const auto rows = efficiencies_from(runs, ceilings_from(runs));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].floor_seconds.has_value());
  EXPECT_EQ(rows[0].missing_ceiling, "hbm_device_copy");
  std::ostringstream printed;
  print_summary(printed, runs);
  EXPECT_NE(printed.str().find("not measured in this run"), std::string::npos) << printed.str();
}

TEST(CeilingSummary, BenchmarksWithoutFloorsAreLeftOut) {
  const std::vector<measured_run> runs = {{"elementwise/cpu_threads/elements:10", 1e-3, {}}};
  EXPECT_TRUE(efficiencies_from(runs, ceilings_from(runs)).empty());
}

TEST(ResultsAnnotation, WritesFloorEfficiencyAndSuspectIntoTheJson) {
  const std::string path = ::testing::TempDir() + "handoff_annotation_test.json";
  {
    std::ofstream out(path);
    out << R"({"context": {}, "benchmarks": [
      {"name": "ceilings/hbm_device_copy/manual_time", "run_type": "iteration"},
      {"name": "elementwise/gpu_resident/elements:10/manual_time", "run_type": "iteration"},
      {"name": "elementwise/gpu_resident/elements:10/manual_time_median", "run_type": "aggregate"}
    ]})";
  }
  const std::vector<measured_run> runs = {
      ceiling_run("hbm_device_copy", 1.0, 4e12),
      {"elementwise/gpu_resident/elements:10/manual_time",
       1e-3,
       {{"floor_bytes.hbm_device_copy", 8e9}}},
  };
  annotate_results(path, runs);
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find(R"("suspect": true)"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("efficiency": 2.0)"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("handoff_ceilings")"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("unit": "bytes_per_second")"), std::string::npos) << text;
  std::remove(path.c_str());
}

TEST(ResultsAnnotation, ReadsGoogleBenchmarksBareNanAsNull) {
  // Under repetitions Google Benchmark writes "wrong": NaN for the cv of an all-zero counter.
  const std::string path = ::testing::TempDir() + "handoff_annotation_nan_test.json";
  {
    std::ofstream out(path);
    out << R"({"context": {}, "benchmarks": [
      {"name": "x/manual_time_cv", "run_type": "aggregate", "wrong": NaN, "items": -nan,
       "label": "NaN inside a string stays", "bytes": Infinity}
    ]})";
  }
  annotate_results(path, {});
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find(R"("wrong": null)"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("items": null)"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("bytes": null)"), std::string::npos) << text;
  EXPECT_NE(text.find("NaN inside a string stays"), std::string::npos) << text;
  std::remove(path.c_str());
}

TEST(ResultsAnnotation, FindsTheJsonOutputFlag) {
  std::string program = "handoff_bench", out = "--benchmark_out=r.json";
  std::string csv = "--benchmark_out_format=csv";
  std::vector<char*> json_args = {program.data(), out.data()};
  EXPECT_EQ(json_results_path(2, json_args.data()), "r.json");
  std::vector<char*> csv_args = {program.data(), out.data(), csv.data()};
  EXPECT_EQ(json_results_path(3, csv_args.data()), "");
}

}  // namespace
}  // namespace handoff::bench

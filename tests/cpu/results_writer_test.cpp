// The results file written as rows finish: every snapshot is valid JSON the report reads, marked
// incomplete until the last write, which says complete or why not.

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/results_writer.hpp"

namespace handoff::bench {
namespace {

using Run = benchmark::BenchmarkReporter::Run;

Run measured(const std::string& name, double seconds) {
  Run run;
  run.run_name.function_name = name;
  run.run_type = Run::RT_Iteration;
  run.iterations = 1;
  run.real_accumulated_time = seconds;
  run.cpu_accumulated_time = seconds;
  run.time_unit = benchmark::kMicrosecond;
  run.counters["samples"] = benchmark::Counter(12);
  return run;
}

nlohmann::json read(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(
      std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
}

class ResultsWriter : public ::testing::Test {
 protected:
  void TearDown() override { std::remove(path.c_str()); }
  // One file per test and process: ctest runs this fixture's tests in parallel processes.
  const std::string path = ::testing::TempDir() + "handoff_results_writer_" +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
                           std::to_string(::getpid()) + ".json";
};

TEST_F(ResultsWriter, EverySnapshotIsValidAndIncompleteUntilTheEnd) {
  results_writer writer(path);
  writer.begin(benchmark::BenchmarkReporter::Context{});
  writer.add({measured("elementwise/cpu_serial/elements:1", 2e-6)});
  writer.snapshot({}, true);
  auto first = read(path);
  EXPECT_EQ(first["handoff_run"]["state"], "incomplete");
  EXPECT_EQ(first["handoff_run"]["rows"], 1);
  ASSERT_EQ(first["benchmarks"].size(), 1u);
  EXPECT_EQ(first["benchmarks"][0]["samples"], 12);
  EXPECT_TRUE(first.contains("handoff_ceilings"));
  EXPECT_EQ(first["handoff_ceilings_source"]["kind"], "measured");

  writer.add({measured("elementwise/cpu_serial/elements:2", 3e-6)});
  writer.finish({}, "");
  auto last = read(path);
  EXPECT_EQ(last["handoff_run"]["state"], "complete");
  EXPECT_EQ(last["handoff_run"]["reason"], "");
  EXPECT_EQ(last["benchmarks"].size(), 2u);
}

TEST_F(ResultsWriter, AnInterruptedRunSaysWhy) {
  results_writer writer(path);
  writer.begin(benchmark::BenchmarkReporter::Context{});
  writer.add({measured("x", 1e-6)});
  writer.finish({}, "interrupted by SIGINT");
  const auto results = read(path);
  EXPECT_EQ(results["handoff_run"]["state"], "incomplete");
  EXPECT_EQ(results["handoff_run"]["reason"], "interrupted by SIGINT");
  EXPECT_EQ(results["benchmarks"].size(), 1u);
}

TEST_F(ResultsWriter, SnapshotsAreThrottledUnlessForced) {
  results_writer writer(path);
  writer.begin(benchmark::BenchmarkReporter::Context{});
  writer.add({measured("x", 1e-6)});
  writer.snapshot({});
  writer.add({measured("y", 1e-6)});
  writer.snapshot({});  // within a second of the first: not written
  EXPECT_EQ(read(path)["benchmarks"].size(), 1u);
  writer.snapshot({}, true);
  EXPECT_EQ(read(path)["benchmarks"].size(), 2u);
}

TEST(ResultsWriterDisabled, WritesNothingWithoutAPath) {
  results_writer writer("");
  EXPECT_FALSE(writer.enabled());
  writer.begin(benchmark::BenchmarkReporter::Context{});
  writer.add({measured("x", 1e-6)});
  writer.finish({}, "");
}

}  // namespace
}  // namespace handoff::bench

// Ceilings for a filtered run: reused from an earlier file of the same machine only, and otherwise
// named as still needed so that the run measures them.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>

#include "harness/ceiling_source.hpp"

namespace handoff::bench {
namespace {

const std::map<std::string, std::string> this_machine{
    {"gpu0_uuid", "GPU-1"}, {"gpu0_name", "NVIDIA H200"}, {"git_commit", "abc"}};

class CeilingSource : public ::testing::Test {
 protected:
  void write(const std::string& text) {
    std::ofstream out(path);
    out << text;
  }
  void TearDown() override {
    std::remove(path.c_str());
    forget_reused_ceilings();
  }
  // One file per test and process: ctest runs this fixture's tests in parallel processes.
  const std::string path = ::testing::TempDir() + "handoff_ceiling_source_" +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
                           std::to_string(::getpid()) + ".json";
};

TEST_F(CeilingSource, ReusesAnEarlierRunOfTheSameMachine) {
  // The build may differ (git_commit): only the machine must match.
  write(R"({"context": {"date": "2026-11-20", "handoff_gpu0_uuid": "GPU-1",
            "handoff_gpu0_name": "NVIDIA H200", "handoff_git_commit": "old"},
            "benchmarks": [],
            "handoff_ceilings": {"pcie_h2d_pinned": {"value": 5e10, "unit": "bytes_per_second"},
                                 "launch_async": {"value": 2e-6, "unit": "seconds"}}})");
  reuse_ceilings_from(path, this_machine);
  const auto& source = active_ceilings_source();
  EXPECT_EQ(source.kind, "reused");
  EXPECT_NE(source.note().find("2026-11-20"), std::string::npos) << source.note();
  const std::vector<measured_run> rows{
      {"tensor_transfer/x", 1e-3, {{"floor_bytes.pcie_h2d_pinned", 1e6}}},
      {"queued_worker/y", 1e-3, {{"floor_events.pipe_round_trip", 2}}}};
  const auto ceilings = ceilings_for_this_run(rows);
  ASSERT_TRUE(ceilings.contains("pcie_h2d_pinned"));
  EXPECT_DOUBLE_EQ(ceilings.at("pcie_h2d_pinned").value, 5e10);
  EXPECT_TRUE(ceilings.at("launch_async").is_latency);
  EXPECT_EQ(ceilings_still_needed(rows), std::vector<std::string>{"pipe_round_trip"});
}

TEST_F(CeilingSource, ASizeThisRunDidNotMeasureAgainKeepsItsReusedRate) {
  write(R"({"context": {"handoff_gpu0_uuid": "GPU-1", "handoff_gpu0_name": "NVIDIA H200"},
            "benchmarks": [],
            "handoff_ceilings": {"shm_memcpy_one_thread": {"value": 36e9,
              "unit": "bytes_per_second",
              "rate_by_bytes": [[1048576, 36e9], [4194304, 15e9], [16777216, 14e9]]}}})");
  reuse_ceilings_from(path, this_machine);
  // This run measured the ceiling again at 1 MiB and 16 MiB only, as a further process does.
  const std::vector<measured_run> rows{
      {"ceilings/shm_memcpy_one_thread/method:memcpy/bytes:1048576",
       1048576 / 35e9,
       {{"bytes", 1048576}}},
      {"ceilings/shm_memcpy_one_thread/method:memcpy/bytes:16777216",
       16777216 / 13e9,
       {{"bytes", 16777216}}},
      {"tensor_transfer/shm/memory:host/bytes:4194304",
       1e-3,
       {{"floor_bytes.shm_memcpy_one_thread", 4194304}}}};
  const auto ceiling = ceilings_for_this_run(rows).at("shm_memcpy_one_thread");
  ASSERT_EQ(ceiling.rate_by_bytes.size(), 3U);
  EXPECT_DOUBLE_EQ(ceiling.rate_by_bytes[0].second, 35e9);  // measured here
  EXPECT_DOUBLE_EQ(ceiling.rate_by_bytes[1].second, 15e9);  // reused
  EXPECT_DOUBLE_EQ(ceiling.rate_by_bytes[2].second, 13e9);  // measured here
  // Priced at its own size's rate, not at the in-cache 1 MiB rate below it.
  EXPECT_DOUBLE_EQ(ceiling.rate_for(4194304), 15e9);
}

TEST_F(CeilingSource, RefusesAnotherMachinesCeilings) {
  write(R"({"context": {"handoff_gpu0_uuid": "GPU-2", "handoff_gpu0_name": "NVIDIA H200"},
            "benchmarks": [], "handoff_ceilings": {"x": {"value": 1, "unit": "seconds"}}})");
  try {
    reuse_ceilings_from(path, this_machine);
    FAIL() << "another machine's ceilings were accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("gpu0_uuid"), std::string::npos) << error.what();
  }
}

TEST_F(CeilingSource, RefusesAFileWithoutCeilingsOrNotJson) {
  write(R"({"context": {"handoff_gpu0_uuid": "GPU-1", "handoff_gpu0_name": "NVIDIA H200"},
            "benchmarks": []})");
  EXPECT_THROW(reuse_ceilings_from(path, this_machine), std::invalid_argument);
  write("not json");
  EXPECT_THROW(reuse_ceilings_from(path, this_machine), std::invalid_argument);
  EXPECT_THROW(reuse_ceilings_from(path + ".missing", this_machine), std::invalid_argument);
}

}  // namespace
}  // namespace handoff::bench

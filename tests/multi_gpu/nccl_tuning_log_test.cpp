// NCCL's tuning lines read back as the path each collective took (nccl_tuning_log.hpp), and the log
// file found only where NCCL's own variables put those lines in a file.

#include "handoff/patterns/multi_gpu/nccl_tuning_log.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <string>

namespace handoff::multi_gpu_tests {
namespace {

using namespace patterns::multi_gpu;

// A log file of this test's own, removed however the test ends.
struct scratch_log {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("handoff-nccl-log-" + std::to_string(::getpid()) + ".log");
  scratch_log() { std::filesystem::remove(path); }
  scratch_log(const scratch_log&) = delete;
  scratch_log& operator=(const scratch_log&) = delete;
  ~scratch_log() { std::filesystem::remove(path); }
};

constexpr std::string_view ring_line =
    "host:123:456 [0] NCCL INFO AllGather: 1073741824 Bytes -> Algo RING proto SIMPLE "
    "channel{Lo..Hi}={0..63}";
constexpr std::string_view symmetric_line =
    "host:123:456 [0] NCCL INFO AllGather [Symmetric]: 1073741824 Bytes -> Kernel AllGather_STMC "
    "nchannels 32 nthreads 512 nWorks 1";

TEST(NcclTuningLog, ALineGivesItsAlgorithmAndProtocolOrSymmetric) {
  EXPECT_EQ(nccl_path_of_line(ring_line, "AllGather"), "ring_simple");
  EXPECT_EQ(nccl_path_of_line(symmetric_line, "AllGather"), "symmetric");
  EXPECT_EQ(nccl_path_of_line("NCCL INFO Broadcast: 64 Bytes -> Algo RING proto LL128 channel",
                              "Broadcast"),
            "ring_ll128");
}

TEST(NcclTuningLog, OtherFunctionsAndOtherLinesGiveNothing) {
  EXPECT_EQ(nccl_path_of_line(ring_line, "Broadcast"), std::nullopt);
  EXPECT_EQ(nccl_path_of_line("NCCL INFO comm 0x1 rank 0 nRanks 2 - Init COMPLETE", "AllGather"),
            std::nullopt);
  EXPECT_EQ(nccl_path_of_line("NCCL INFO AllGather: 64 Bytes -> Algo", "AllGather"), std::nullopt);
}

TEST(NcclTuningLog, TheFileIsFoundOnlyWhereNcclWritesTuningLinesToIt) {
  EXPECT_EQ(nccl_tuning_log_file({"INFO", "TUNING", "/tmp/nccl.%h.%p.log"}, "gpu7", 42),
            std::filesystem::path("/tmp/nccl.gpu7.42.log"));
  EXPECT_EQ(nccl_tuning_log_file({"info", "INIT,ALL", "/tmp/n.log"}, "h", 1),
            std::filesystem::path("/tmp/n.log"));
  EXPECT_EQ(nccl_tuning_log_file({"WARN", "TUNING", "/tmp/n.log"}, "h", 1), std::nullopt);
  EXPECT_EQ(nccl_tuning_log_file({"INFO", "INIT,ENV", "/tmp/n.log"}, "h", 1), std::nullopt);
  EXPECT_EQ(nccl_tuning_log_file({"INFO", "ALL,^TUNING", "/tmp/n.log"}, "h", 1), std::nullopt);
  EXPECT_EQ(nccl_tuning_log_file({"INFO", "TUNING", ""}, "h", 1), std::nullopt);
}

TEST(NcclTuningLog, EachReadCountsTheWholeLinesWrittenSinceTheLast) {
  const scratch_log scratch;
  const auto& file = scratch.path;
  std::ofstream(file) << ring_line << '\n';  // before the follower: an earlier row's
  nccl_tuning_log log(file, "AllGather");
  {
    std::ofstream more(file, std::ios::app);
    more << ring_line << '\n' << symmetric_line << '\n' << symmetric_line << '\n' << "AllGa";
  }
  const std::map<std::string, std::size_t> first{{"ring_simple", 1}, {"symmetric", 2}};
  EXPECT_EQ(log.read_new_paths(), first);
  std::ofstream(file, std::ios::app) << "ther: 8 Bytes -> Algo TREE proto LL channel\n";
  const std::map<std::string, std::size_t> second{{"tree_ll", 1}};
  EXPECT_EQ(log.read_new_paths(), second);
  EXPECT_TRUE(log.read_new_paths().empty());
}

TEST(NcclTuningLog, FiguresAreTheCallsAndEachPathsShare) {
  const auto figures = nccl_path_figures({{"ring_simple", 3}, {"symmetric", 1}});
  ASSERT_EQ(figures.size(), 3u);
  EXPECT_EQ(figures[0].name, "nccl_logged_calls");
  EXPECT_EQ(figures[0].value, 4.0);
  EXPECT_EQ(figures[1].name, "nccl_path_ring_simple");
  EXPECT_DOUBLE_EQ(figures[1].value, 0.75);
  EXPECT_EQ(figures[2].name, "nccl_path_symmetric");
  EXPECT_DOUBLE_EQ(figures[2].value, 0.25);
  const auto none = nccl_path_figures({});
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0].value, 0.0);
  for (const auto& figure : figures)
    EXPECT_TRUE(is_nccl_path_figure(figure.name)) << figure.name;
  EXPECT_FALSE(is_nccl_path_figure("nccl_windows_registered"));
  EXPECT_FALSE(is_nccl_path_figure("nccl_in_place"));
}

}  // namespace
}  // namespace handoff::multi_gpu_tests

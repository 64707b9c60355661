// shared_memory_headroom: what the machine can still give a segment, read from /proc/meminfo and
// from the memory cgroups of this process, here laid out in a directory of the test's own so each
// kind of limit can be shown to count.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "handoff/transport/memory_headroom.hpp"

namespace handoff::transport {
namespace {

constexpr std::size_t mebibyte = std::size_t{1} << 20;

class MemoryHeadroom : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() /
            ("handoff-headroom-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(root_);
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  void write(const std::string& path, const std::string& text) {
    const auto file = root_ / path;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
  }
  void write_meminfo(std::size_t available_kib) {
    write("proc/meminfo",
          "MemTotal:       99999999 kB\nMemFree:          1000 kB\n"
          "MemAvailable:   " +
              std::to_string(available_kib) + " kB\nBuffers: 0 kB\n");
  }
  memory_headroom headroom() const { return shared_memory_headroom(root_); }

  std::filesystem::path root_;
};

TEST_F(MemoryHeadroom, WithoutAnyFigureNothingLimits) {
  EXPECT_EQ(headroom().bytes, std::numeric_limits<std::size_t>::max());
}

TEST_F(MemoryHeadroom, MemAvailableLimitsWithoutACgroupLimit) {
  write_meminfo(2048);
  write("proc/self/cgroup", "0::/\n");
  const auto found = headroom();
  EXPECT_EQ(found.bytes, 2048u * 1024);
  EXPECT_NE(found.limited_by.find("MemAvailable"), std::string::npos) << found.limited_by;
}

TEST_F(MemoryHeadroom, ACgroupV2LimitCountsWhatItsMembersUseButCannotReclaim) {
  write_meminfo(64 * 1024 * 1024);  // 64 GiB available on the machine
  write("proc/self/cgroup", "0::/jobs/run\n");
  write("sys/fs/cgroup/jobs/memory.max", "max\n");
  write("sys/fs/cgroup/jobs/run/memory.max", std::to_string(1024 * mebibyte) + "\n");
  write("sys/fs/cgroup/jobs/run/memory.current", std::to_string(600 * mebibyte) + "\n");
  write("sys/fs/cgroup/jobs/run/memory.stat",
        "anon 1\nfile 2\ninactive_file " + std::to_string(100 * mebibyte) + "\nactive_file 3\n");
  const auto found = headroom();
  EXPECT_EQ(found.bytes, 524 * mebibyte) << "1024 MiB less the 500 MiB that cannot be reclaimed";
  EXPECT_NE(found.limited_by.find("jobs/run"), std::string::npos) << found.limited_by;
}

TEST_F(MemoryHeadroom, AnAncestorsTighterLimitCounts) {
  write_meminfo(64 * 1024 * 1024);
  write("proc/self/cgroup", "0::/jobs/run\n");
  write("sys/fs/cgroup/jobs/memory.max", std::to_string(300 * mebibyte));
  write("sys/fs/cgroup/jobs/memory.current", "0");
  write("sys/fs/cgroup/jobs/run/memory.max", std::to_string(1024 * mebibyte));
  write("sys/fs/cgroup/jobs/run/memory.current", "0");
  const auto found = headroom();
  EXPECT_EQ(found.bytes, 300 * mebibyte);
  EXPECT_EQ(found.limited_by.find("jobs/run"), std::string::npos) << found.limited_by;
}

TEST_F(MemoryHeadroom, ACgroupOverItsLimitHasNoRoomLeft) {
  write_meminfo(64 * 1024 * 1024);
  write("proc/self/cgroup", "0::/full\n");
  write("sys/fs/cgroup/full/memory.max", std::to_string(100 * mebibyte));
  write("sys/fs/cgroup/full/memory.current", std::to_string(120 * mebibyte));
  EXPECT_EQ(headroom().bytes, 0u);
}

TEST_F(MemoryHeadroom, ACgroupV1MemoryLimitCountsAndItsNoLimitValueDoesNot) {
  write_meminfo(8 * 1024 * 1024);  // 8 GiB
  write("proc/self/cgroup", "5:cpu,cpuacct:/other\n4:memory:/box/task\n0::/\n");
  write("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
  write("sys/fs/cgroup/memory/box/memory.limit_in_bytes", "9223372036854771712\n");
  write("sys/fs/cgroup/memory/box/task/memory.limit_in_bytes",
        std::to_string(2048 * mebibyte) + "\n");
  write("sys/fs/cgroup/memory/box/task/memory.usage_in_bytes",
        std::to_string(1024 * mebibyte) + "\n");
  write("sys/fs/cgroup/memory/box/task/memory.stat",
        "cache 5\ninactive_file 7\ntotal_inactive_file " + std::to_string(24 * mebibyte) + "\n");
  const auto found = headroom();
  EXPECT_EQ(found.bytes, 1048 * mebibyte);
  EXPECT_NE(found.limited_by.find("box/task"), std::string::npos) << found.limited_by;
}

TEST_F(MemoryHeadroom, OnThisMachineItIsSomeMemoryButNoMoreThanItHas) {
  const auto found = shared_memory_headroom();
  EXPECT_GT(found.bytes, 0u);
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t total_kib = 0;
  ASSERT_TRUE(meminfo >> key >> total_kib);
  ASSERT_EQ(key, "MemTotal:");
  EXPECT_LE(found.bytes, total_kib * 1024) << found.limited_by;
}

}  // namespace
}  // namespace handoff::transport

// The leak checks the conformance tests rely on must be able to fail: a live process runs, a
// zombie no longer runs but still exists, and a segment is seen until it is gone.

#include "support/leak_checks.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "handoff/transport/shared_memory_segment.hpp"
#include "handoff/transport/spawned_process.hpp"

namespace handoff::leak_checks {
namespace {

using namespace std::chrono_literals;

TEST(LeakChecks, TellARunningProcessFromAZombieAndFromAReapedOne) {
  auto child = transport::spawned_process::start("sleeper", {"/bin/sleep", "30"});
  const pid_t pid = child.pid();
  EXPECT_TRUE(process_runs(pid));
  EXPECT_TRUE(process_exists(pid));
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (process_runs(pid) && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(1ms);
  EXPECT_FALSE(process_runs(pid));
  EXPECT_TRUE(process_exists(pid)) << "an unreaped zombie still exists";
  child.wait_for(10s);
  EXPECT_FALSE(process_exists(pid));
}

TEST(LeakChecks, SeeASegmentOnlyWhileItIsInDevShm) {
  const std::string purpose = "leak-check-" + std::to_string(::getpid());
  EXPECT_TRUE(shm_segments_containing(purpose).empty());
  // A shareable segment is unlinked at creation, so none is ever listed: that is the design.
  const auto segment = transport::shared_memory_segment::create_shareable(4096, purpose);
  EXPECT_TRUE(shm_segments_containing(purpose).empty());
  const std::string name = "/handoff-" + purpose + "-listed";
  const int fd = ::shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  ASSERT_GE(fd, 0);
  ::close(fd);
  EXPECT_EQ(shm_segments_containing(purpose).size(), 1u);
  ::shm_unlink(name.c_str());
  EXPECT_TRUE(shm_segments_containing(purpose).empty());
}

}  // namespace
}  // namespace handoff::leak_checks

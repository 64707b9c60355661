// The leak checks the conformance tests rely on must be able to fail: a live process runs, a
// zombie no longer runs but still exists, and a segment is seen while anything of this process
// holds it (a descriptor or a mapping, leaked on purpose here), and no longer once nothing does.

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

TEST(LeakChecks, SeeASegmentWhileThisProcessHoldsItsDescriptorOrAMapping) {
  const std::string purpose = "leak-check-" + std::to_string(::getpid());
  EXPECT_TRUE(held_segments_containing(purpose).empty());
  int leaked_descriptor = -1;
  {
    const auto segment = transport::shared_memory_segment::create_shareable(4096, purpose);
    const auto held = held_segments_containing(purpose);
    ASSERT_EQ(held.size(), 1u) << "a live segment is seen";
    EXPECT_TRUE(held.begin()->starts_with("handoff-" + purpose + "-")) << *held.begin();
    EXPECT_TRUE(held_segments_containing("no-such-purpose").empty()) << "only what matches";
    // A deliberate leak: a descriptor that outlives the segment.
    leaked_descriptor = ::fcntl(segment.descriptor(), F_DUPFD_CLOEXEC, 0);
    ASSERT_GE(leaked_descriptor, 0);
  }
  EXPECT_EQ(held_segments_containing(purpose).size(), 1u) << "a leaked descriptor is a leak";
  // Another deliberate leak: a mapping alone, with no descriptor left.
  void* leaked_mapping = ::mmap(nullptr, 4096, PROT_READ, MAP_SHARED, leaked_descriptor, 0);
  ASSERT_NE(leaked_mapping, MAP_FAILED);
  ::close(leaked_descriptor);
  EXPECT_EQ(held_segments_containing(purpose).size(), 1u) << "a leaked mapping is a leak";
  ::munmap(leaked_mapping, 4096);
  EXPECT_TRUE(held_segments_containing(purpose).empty()) << "freed once nothing holds it";
}

TEST(LeakChecks, SeeAPrivateSegmentByItsMapping) {
  const std::string purpose = "leak-check-private-" + std::to_string(::getpid());
  {
    const auto segment = transport::shared_memory_segment::create_private(8192, purpose);
    EXPECT_EQ(segment.descriptor(), -1);
    EXPECT_EQ(held_segments_containing(purpose).size(), 1u);
  }
  EXPECT_TRUE(held_segments_containing(purpose).empty());
}

}  // namespace
}  // namespace handoff::leak_checks

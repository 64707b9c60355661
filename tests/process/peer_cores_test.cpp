// Where a spin's peers last ran and whose child a process is (peer_cores.hpp, process_state.hpp):
// read from /proc, and followed as children come and go.

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <climits>
#include <thread>
#include <vector>

#include "handoff/transport/peer_cores.hpp"
#include "handoff/transport/process_state.hpp"
#include "handoff/transport/spawned_process.hpp"

namespace handoff::transport {
namespace {

std::vector<int> cores_allowed() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  std::vector<int> cores;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return cores;
  for (int core = 0; core < CPU_SETSIZE; ++core)
    if (CPU_ISSET(core, &allowed)) cores.push_back(core);
  return cores;
}

bool hold_on_core(pid_t process, int core) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(core, &one);
  return sched_setaffinity(process, sizeof one, &one) == 0;
}

// Until `process` is seen on `core`: a busy process moves there when its affinity changes.
bool seen_on(pid_t process, int core) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < give_up) {
    if (process_last_core(process) == core) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

// Asked from a thread of its own held on `core`: each thread keeps its own last answer.
bool a_peer_is_seen_from(int core) {
  bool seen = false;
  std::thread asker([&] {
    if (hold_on_core(0, core)) seen = a_peer_last_ran_on_this_core();
  });
  asker.join();
  return seen;
}

TEST(PeerCores, ReadsTheCoreAProcessLastRanOn) {
  const auto cores = cores_allowed();
  ASSERT_FALSE(cores.empty());
  const int core = cores.back();
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  ASSERT_TRUE(hold_on_core(0, core));
  EXPECT_EQ(process_last_core(::getpid()), core);
  ASSERT_EQ(sched_setaffinity(0, sizeof before, &before), 0);
}

TEST(PeerCores, AProcessThatIsGoneHasNoCore) {
  auto ended = spawned_process::start("ended", {"/bin/true"});
  const pid_t pid = ended.pid();
  ASSERT_TRUE(ended.wait_for(std::chrono::seconds(10)).success());
  EXPECT_EQ(process_last_core(pid), -1);
  EXPECT_EQ(process_last_core(INT_MAX), -1);
}

TEST(ProcessThreads, ListsEveryThreadOfAProcessAndNoneOfOneThatIsGone) {
  std::atomic<bool> done = false;
  pid_t started = 0;
  std::atomic<bool> running = false;
  std::thread other([&] {
    started = ::gettid();
    running = true;
    while (!done)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  while (!running)
    std::this_thread::yield();
  const auto threads = process_threads(::getpid());
  done = true;
  other.join();
  EXPECT_TRUE(std::is_sorted(threads.begin(), threads.end()));
  EXPECT_NE(std::find(threads.begin(), threads.end(), ::getpid()), threads.end());
  EXPECT_NE(std::find(threads.begin(), threads.end(), started), threads.end());
  EXPECT_TRUE(process_threads(INT_MAX).empty());
}

TEST(PeerCores, AProcessParentIsReadPastACommandWithSpacesAndParentheses) {
  std::array<char, 16> name{};
  ASSERT_EQ(prctl(PR_GET_NAME, name.data()), 0);
  ASSERT_EQ(prctl(PR_SET_NAME, "x) (y 7 z"), 0);
  const auto parent = process_parent(::getpid());
  ASSERT_EQ(prctl(PR_SET_NAME, name.data()), 0);
  EXPECT_EQ(parent, ::getppid());
  auto ended = spawned_process::start("ended", {"/bin/true"});
  const pid_t pid = ended.pid();
  ASSERT_TRUE(ended.wait_for(std::chrono::seconds(10)).success());
  EXPECT_FALSE(process_parent(pid).has_value()) << "a reaped process has no parent to read";
  EXPECT_FALSE(process_parent(INT_MAX).has_value());
}

TEST(PeerCores, AChildOnThisCoreIsAPeerThereAndNotElsewhereUntilItIsReaped) {
  const auto cores = cores_allowed();
  if (cores.size() < 2) GTEST_SKIP() << "needs two cores this process may run on";
  const int child_core = cores.front();
  const int other_core = cores.back();
  auto busy = spawned_process::start("busy", {"/bin/sh", "-c", "while :; do :; done"});
  ASSERT_TRUE(hold_on_core(busy.pid(), child_core));
  ASSERT_TRUE(seen_on(busy.pid(), child_core));
  EXPECT_TRUE(a_peer_is_seen_from(child_core));
  EXPECT_FALSE(a_peer_is_seen_from(other_core));
  busy.kill_and_reap();
  EXPECT_FALSE(a_peer_is_seen_from(child_core));
}

}  // namespace
}  // namespace handoff::transport

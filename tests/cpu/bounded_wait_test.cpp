// The waits that give up (bounded_wait.hpp), with a stand-in for the GPU's answer: the limit, the
// error's names, and the setting. That a stuck peer on a real GPU is caught is
// tests/multi_gpu/stuck_peer_test.cpp's.

#include "handoff/bounded_wait.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>

namespace handoff {
namespace {

using namespace std::chrono_literals;

constexpr wait_site stuck_site{.variant = "nccl_allgather", .stage = "run", .device = 1};

TEST(BoundedWait, WorkThatFinishesIsWaitedFor) {
  int polls = 0;
  wait_until([&polls] { return ++polls == 50; }, stuck_site, 10s);
  EXPECT_EQ(polls, 50);
}

TEST(BoundedWait, WorkThatNeverFinishesIsAStallNamingTheVariantStageAndGpu) {
  const auto started = std::chrono::steady_clock::now();
  try {
    wait_until([] { return false; }, stuck_site, 200ms);
    FAIL() << "a wait on work that never finishes returned";
  } catch (const gpu_stalled& stalled) {
    EXPECT_EQ(stalled.variant(), "nccl_allgather");
    EXPECT_EQ(stalled.stage(), "run");
    EXPECT_EQ(stalled.device(), 1);
    const std::string message = stalled.what();
    EXPECT_NE(message.find("GPU 1"), std::string::npos) << message;
    EXPECT_NE(message.find("nccl_allgather (run)"), std::string::npos) << message;
    EXPECT_NE(message.find("HANDOFF_GPU_WAIT_SECONDS"), std::string::npos) << message;
  }
  EXPECT_GE(std::chrono::steady_clock::now() - started, 200ms);
}

TEST(BoundedWait, EveryStallIsCountedAndFinishedWaitsAreNot) {
  const std::size_t before = gpu_stalls_so_far();
  wait_until([] { return true; }, stuck_site, 10ms);
  EXPECT_EQ(gpu_stalls_so_far(), before);
  EXPECT_THROW(wait_until([] { return false; }, stuck_site, 10ms), gpu_stalled);
  EXPECT_THROW(wait_until([] { return false; }, stuck_site, 10ms), gpu_stalled);
  EXPECT_EQ(gpu_stalls_so_far(), before + 2);
}

TEST(BoundedWait, WorkThatFinishesAtTheLimitIsNotAStall) {
  // Answers "not yet" until asked after the limit, as work ending just then would.
  const auto limit = 50ms;
  const auto started = std::chrono::steady_clock::now();
  EXPECT_NO_THROW(wait_until([&] { return std::chrono::steady_clock::now() - started >= limit; },
                             stuck_site, limit));
}

class WaitLimitSetting : public ::testing::Test {
 protected:
  void TearDown() override { ::unsetenv("HANDOFF_GPU_WAIT_SECONDS"); }
};

TEST_F(WaitLimitSetting, IsTwoMinutesUnlessSet) {
  ::unsetenv("HANDOFF_GPU_WAIT_SECONDS");
  EXPECT_EQ(gpu_wait_limit(), std::chrono::duration<double>(120.0));
  ::setenv("HANDOFF_GPU_WAIT_SECONDS", "2.5", 1);
  EXPECT_EQ(gpu_wait_limit(), std::chrono::duration<double>(2.5));
}

TEST_F(WaitLimitSetting, AnythingButAPositiveNumberIsRefusedByName) {
  for (const char* wrong : {"0", "-1", "soon", "5s", "inf", "nan"}) {
    ::setenv("HANDOFF_GPU_WAIT_SECONDS", wrong, 1);
    try {
      (void)gpu_wait_limit();
      FAIL() << "HANDOFF_GPU_WAIT_SECONDS=" << wrong << " was accepted";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("HANDOFF_GPU_WAIT_SECONDS"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace handoff

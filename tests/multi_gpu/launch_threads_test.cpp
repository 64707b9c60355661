// launch_threads without a GPU: every thread runs each task once, all at once, its prologue
// first; exceptions reach the caller; nothing hangs, including destruction while idle.

#include "handoff/patterns/multi_gpu/launch_threads.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace handoff::multi_gpu_tests {
namespace {

using patterns::multi_gpu::launch_threads;

TEST(LaunchThreads, EveryThreadRunsEachTaskOnceWithItsOwnIndex) {
  launch_threads threads(4, nullptr);
  std::vector<std::atomic<int>> runs(4);
  for (int round = 0; round < 1000; ++round) {
    threads.run_on_each([&](std::size_t index) { runs[index].fetch_add(1); });
  }
  for (std::size_t i = 0; i < runs.size(); ++i)
    EXPECT_EQ(runs[i].load(), 1000) << "thread " << i;
}

TEST(LaunchThreads, TasksRunAtOnceNotInTurn) {
  // Each task waits until every thread has arrived; threads run in turn would never all arrive.
  constexpr std::size_t count = 4;
  launch_threads threads(count, nullptr);
  std::atomic<std::size_t> arrived{0};
  std::atomic<std::size_t> saw_everyone{0};
  threads.run_on_each([&](std::size_t) {
    arrived.fetch_add(1);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (arrived.load() < count && std::chrono::steady_clock::now() < give_up)
      std::this_thread::yield();
    if (arrived.load() == count) saw_everyone.fetch_add(1);
  });
  EXPECT_EQ(saw_everyone.load(), count);
}

TEST(LaunchThreads, EachThreadRunsItsPrologueOnItsOwnThreadFirst) {
  std::vector<std::thread::id> prologue_thread(3);
  launch_threads threads(
      3, [&](std::size_t index) { prologue_thread[index] = std::this_thread::get_id(); });
  std::vector<std::thread::id> task_thread(3);
  threads.run_on_each([&](std::size_t index) { task_thread[index] = std::this_thread::get_id(); });
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(task_thread[i], prologue_thread[i]) << "thread " << i;
    EXPECT_NE(task_thread[i], std::this_thread::get_id()) << "thread " << i;
  }
}

TEST(LaunchThreads, TheFirstFailingThreadsExceptionReachesTheCallerAfterEveryTaskReturns) {
  launch_threads threads(3, nullptr);
  std::atomic<int> returned{0};
  try {
    threads.run_on_each([&](std::size_t index) {
      returned.fetch_add(1);
      if (index >= 1) throw std::runtime_error("task " + std::to_string(index) + " failed");
    });
    FAIL() << "run_on_each returned although two tasks threw";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "task 1 failed");
  }
  EXPECT_EQ(returned.load(), 3);
  // The threads still serve after a failure.
  std::atomic<int> later{0};
  threads.run_on_each([&](std::size_t) { later.fetch_add(1); });
  EXPECT_EQ(later.load(), 3);
}

TEST(LaunchThreads, AFailedPrologueFailsEveryTaskOfThatThread) {
  launch_threads threads(2, [](std::size_t index) {
    if (index == 1) throw std::runtime_error("no device 1");
  });
  for (int round = 0; round < 2; ++round) {
    std::atomic<int> ran{0};
    EXPECT_THROW(threads.run_on_each([&](std::size_t) { ran.fetch_add(1); }), std::runtime_error);
    EXPECT_EQ(ran.load(), 1) << "only the thread whose prologue succeeded runs the task";
  }
}

TEST(LaunchThreads, IdleThreadsSleepAndStillWakeForTheNextTask) {
  launch_threads threads(2, nullptr);
  std::atomic<int> runs{0};
  threads.run_on_each([&](std::size_t) { runs.fetch_add(1); });
  std::this_thread::sleep_for(std::chrono::milliseconds(60));  // well past the 20 ms spin
  threads.run_on_each([&](std::size_t) { runs.fetch_add(1); });
  EXPECT_EQ(runs.load(), 4);
}

TEST(LaunchThreads, DestructionWhileIdleOrNeverUsedReturns) {
  { launch_threads never_used(3, nullptr); }
  {
    launch_threads used(3, nullptr);
    used.run_on_each([](std::size_t) {});
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  { launch_threads none(0, nullptr); }
  SUCCEED();
}

TEST(LaunchThreads, NoThreadsMeansNothingRuns) {
  launch_threads none(0, nullptr);
  int runs = 0;
  none.run_on_each([&](std::size_t) { ++runs; });
  EXPECT_EQ(runs, 0);
}

}  // namespace
}  // namespace handoff::multi_gpu_tests

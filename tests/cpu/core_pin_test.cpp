#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include "harness/core_pin.hpp"

namespace handoff::bench {
namespace {

cpu_set_t current_cores() {
  cpu_set_t cores;
  CPU_ZERO(&cores);
  EXPECT_EQ(pthread_getaffinity_np(pthread_self(), sizeof(cores), &cores), 0);
  return cores;
}

TEST(CorePin, HoldsTheThreadOnTheLastAllowedCoreAndGivesTheRestBack) {
  const cpu_set_t before = current_cores();
  if (CPU_COUNT(&before) < 2) GTEST_SKIP() << "this thread may run on one core only";
  int last = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &before)) last = cpu;
  {
    const core_pin pin(true);
    ASSERT_EQ(pin.core(), last);
    const cpu_set_t held = current_cores();
    EXPECT_EQ(CPU_COUNT(&held), 1);
    EXPECT_TRUE(CPU_ISSET(last, &held));
    EXPECT_EQ(sched_getcpu(), last);
  }
  const cpu_set_t after = current_cores();
  EXPECT_TRUE(CPU_EQUAL(&before, &after));
}

TEST(CorePin, LeavesTheThreadAloneWhenNotWanted) {
  const cpu_set_t before = current_cores();
  {
    const core_pin pin(false);
    EXPECT_FALSE(pin.core().has_value());
    const cpu_set_t during = current_cores();
    EXPECT_TRUE(CPU_EQUAL(&before, &during));
  }
}

}  // namespace
}  // namespace handoff::bench

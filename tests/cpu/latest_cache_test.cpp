// What a family keeps between rows is shut down as its user would, and a pool whose workers did
// not exit cleanly fails the run, even when it is found between benchmarks.

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>

#include "harness/latest_cache.hpp"
#include "harness/outcome.hpp"

namespace handoff::bench {
namespace {

struct pool_stub {
  bool worker_died_after_its_last_batch = false;
  int* shutdowns = nullptr;
  void shutdown() {
    ++*shutdowns;
    if (worker_died_after_its_last_batch) throw std::runtime_error("worker x-1 killed by signal 9");
  }
};

TEST(LatestCache, ANewKeyShutsTheOldValueDown) {
  int shutdowns = 0;
  latest_cache<int, pool_stub> cache;
  cache.get(1, [&] { return std::make_unique<pool_stub>(pool_stub{false, &shutdowns}); });
  cache.get(1, [&] { return std::make_unique<pool_stub>(pool_stub{false, &shutdowns}); });
  EXPECT_EQ(shutdowns, 0);
  cache.get(2, [&] { return std::make_unique<pool_stub>(pool_stub{false, &shutdowns}); });
  EXPECT_EQ(shutdowns, 1);
}

TEST(LatestCache, APoolThatDidNotShutDownCleanlyFailsTheRun) {
  int shutdowns = 0;
  latest_cache<int, pool_stub> cache;
  cache.get(1, [&] { return std::make_unique<pool_stub>(pool_stub{true, &shutdowns}); });
  const int failures_before = failed_benchmark_count();
  testing::internal::CaptureStderr();
  cache.retire_or_drop();
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(shutdowns, 1);
  EXPECT_EQ(failed_benchmark_count(), failures_before + 1);
  EXPECT_NE(printed.find("did not shut down cleanly: worker x-1 killed by signal 9"),
            std::string::npos)
      << printed;
  cache.retire_or_drop();  // dropped: nothing left to shut down, nothing counted twice
  EXPECT_EQ(failed_benchmark_count(), failures_before + 1);
}

}  // namespace
}  // namespace handoff::bench

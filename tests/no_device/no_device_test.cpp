// gpu_count() with no device. Hiding every device must happen before the CUDA runtime starts, so
// this test has its own main and runs as its own process.

#include <gtest/gtest.h>

#include <cstdlib>

#include "handoff/device_discovery.hpp"

namespace handoff {
namespace {

TEST(GpuCountWithNoDevice, ReturnsZeroAndAReasonWithoutAborting) {
  const auto gpus = gpu_count();
  EXPECT_EQ(gpus.count, 0);
  // Every device hidden (or no driver at all, as on CI): "no GPU found", never a call to
  // upgrade a driver.
  EXPECT_EQ(gpus.reason.rfind("no GPU found (", 0), 0u) << gpus.reason;
}

TEST(GpuCountWithNoDevice, AskingTwiceGivesTheSameAnswer) {
  EXPECT_EQ(gpu_count().count, 0);
  EXPECT_EQ(gpu_count().reason, gpu_count().reason);
}

}  // namespace
}  // namespace handoff

int main(int argc, char** argv) {
  ::setenv("CUDA_VISIBLE_DEVICES", "", 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

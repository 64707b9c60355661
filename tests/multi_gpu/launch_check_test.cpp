// The multi_gpu launch check on one GPU: it refuses host memory, the article's first bug, by name
// (every variant's run and verification is conformance_test.cpp's).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/patterns/multi_gpu/launch_check.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::multi_gpu_tests {
namespace {

using namespace patterns::multi_gpu;

TEST(MultiGpuLaunchCheck, RefusesPageableHostMemoryByName) {
  HANDOFF_REQUIRE_GPUS(1);
  std::vector<float> host_part(64, 1.0f);
  try {
    check_kernel_argument("scale_by_two", "input", host_part.data(), 0);
    FAIL() << "a pageable host array was accepted as a kernel argument";
  } catch (const kernel_argument_error& error) {
    EXPECT_NE(std::string(error.what()).find("pageable host memory"), std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("'input'"), std::string::npos) << error.what();
  }
}

TEST(MultiGpuLaunchCheck, RefusesPinnedHostMemoryAndNull) {
  HANDOFF_REQUIRE_GPUS(1);
  const pinned_buffer<float> pinned(64);
  EXPECT_THROW(check_kernel_argument("scale_by_two", "output", pinned.data(), 0),
               kernel_argument_error);
  EXPECT_THROW(check_kernel_argument("scale_by_two", "output", nullptr, 0), kernel_argument_error);
}

TEST(MultiGpuLaunchCheck, AcceptsTheDevicesOwnMemory) {
  HANDOFF_REQUIRE_GPUS(1);
  const device_buffer<float> own(64);
  EXPECT_NO_THROW(check_kernel_argument("scale_by_two", "input", own.data(), 0));
}

}  // namespace
}  // namespace handoff::multi_gpu_tests

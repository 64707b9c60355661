// The multi_gpu pattern's device discipline on two or more GPUs: a kernel given another device's
// memory without peer access is refused before the launch, peer access is turned off again by the
// scope that turned it on, and no variant leaves another device current (the article's loop
// does). That every variant, partitioner and GPU count matches the reference exactly (and so the
// gathers agree with each other) is conformance_test.cpp's.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "handoff/device_buffer.hpp"
#include "handoff/device_discovery.hpp"
#include "handoff/patterns/multi_gpu/launch_check.hpp"
#include "handoff/patterns/multi_gpu/peer_access.hpp"
#include "handoff/patterns/multi_gpu/variants.hpp"
#include "handoff/scoped_device.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::multi_gpu_tests {
namespace {

using namespace patterns::multi_gpu;

int visible_gpus() {
  return gpu_count().count;
}

TEST(MultiGpuDeviceDiscipline, AnotherDevicesPointerIsRefusedBeforeTheLaunch) {
  HANDOFF_REQUIRE_GPUS(2);
  device_buffer<float> on_gpu0;
  {
    const scoped_device on_zero(0);
    on_gpu0 = device_buffer<float>(1024);
  }
  device_buffer<float> on_gpu1;
  {
    const scoped_device on_one(1);
    on_gpu1 = device_buffer<float>(1024);
  }
  const auto kernel = scale_by_two_kernel();
  try {
    checked_launch(kernel, 1, nullptr, on_gpu0.data(), on_gpu1.data(), 1024, 1.0f);
    FAIL() << "GPU 0's memory was passed to a kernel on GPU 1 without peer access";
  } catch (const kernel_argument_error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("memory of GPU 0"), std::string::npos) << message;
    EXPECT_NE(message.find("no peer access"), std::string::npos) << message;
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the check must refuse before any launch";

  if (!peer_access_unavailable_reason(peer_access_matrix(2), 0, 2).empty()) return;
  const scoped_peer_access access({{1, 0}});
  EXPECT_TRUE(peer_access_enabled(1, 0));
  EXPECT_NO_THROW(check_kernel_argument("scale_by_two", "input", on_gpu0.data(), 1));
}

TEST(MultiGpuDeviceDiscipline, PeerAccessScopeTurnsOffWhatItTurnedOn) {
  HANDOFF_REQUIRE_GPUS(2);
  if (const auto reason = peer_access_unavailable_reason(peer_access_matrix(2), 0, 2);
      !reason.empty()) {
    GTEST_SKIP() << reason;
  }
  {
    const scoped_peer_access access(hub_pairs(0, 2));
    EXPECT_TRUE(peer_access_enabled(0, 1));
    EXPECT_TRUE(peer_access_enabled(1, 0));
  }
  EXPECT_FALSE(peer_access_enabled(0, 1));
  EXPECT_FALSE(peer_access_enabled(1, 0));
}

TEST(MultiGpuDeviceDiscipline, EveryVariantLeavesTheCallersDeviceCurrent) {
  HANDOFF_REQUIRE_GPUS(2);
  const int gpus = visible_gpus();
  const int callers_device = gpus - 1;
  const multi_gpu_point at{{"scale_by_two", gpus, partitioner::even, 4099, 256},
                           run_scope::from_host};
  for (const auto& row : multi_gpu_variants()) {
    if (!multi_gpu_unavailable_reason(row.name, gpus).empty()) continue;
    const scoped_device caller(callers_device);
    auto work = make_multi_gpu_case(at);
    auto session = row.setup(at, patterns::compute_target::device);
    session->poison(*work);
    session->run(*work);
    EXPECT_TRUE(session->verify(*work).passed()) << row.name;
    int current = -1;
    ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
    EXPECT_EQ(current, callers_device) << row.name << " left GPU " << current << " current";
  }
}

}  // namespace
}  // namespace handoff::multi_gpu_tests

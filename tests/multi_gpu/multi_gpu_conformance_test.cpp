// The multi_gpu pattern on two or more GPUs: the results equal the CPU reference for every
// partitioner, GPU count and gather; the gathers agree byte for byte; a kernel given another
// device's memory without peer access is refused before the launch; and no run leaves another
// device current (the article's loop does).

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstring>

#include "handoff/device_buffer.hpp"
#include "handoff/device_discovery.hpp"
#include "handoff/patterns/multi_gpu/launch_check.hpp"
#include "handoff/patterns/multi_gpu/peer_access.hpp"
#include "handoff/patterns/multi_gpu/workloads.hpp"
#include "handoff/reference/verify.hpp"
#include "handoff/scoped_device.hpp"
#include "partitioned_case.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::multi_gpu_tests {
namespace {

using namespace patterns::multi_gpu;
using reference::partitioned_operation;

int visible_gpus() {
  return gpu_count().count;
}

std::vector<std::pair<std::string, partition_plan>> plans_for(int gpus, std::size_t elements) {
  std::vector<double> unequal_throughputs;
  for (int d = 0; d < gpus; ++d)
    unequal_throughputs.push_back(1.0 + d);
  return {{"even", partition_even(elements, gpus)},
          {"round_robin", partition_round_robin(elements, gpus, 256)},
          {"weighted", partition_weighted(elements, unequal_throughputs)}};
}

TEST(MultiGpuConformance, EveryPartitionerGpuCountAndGatherMatchesTheReference) {
  HANDOFF_REQUIRE_GPUS(2);
  for (int gpus = 1; gpus <= visible_gpus(); ++gpus) {
    // Fewer elements than two devices, and an uneven size above a round-robin chunk per device.
    for (const std::size_t elements : {std::size_t{1}, std::size_t{70001}}) {
      for (const auto& [partitioner, plan] : plans_for(gpus, elements)) {
        for (const auto gather : runnable_gathers(gpus)) {
          const std::string context = std::to_string(gpus) + " GPUs, " + partitioner + ", " +
                                      std::to_string(elements) + " elements, " + name_of(gather);
          const auto outcome = run_partitioned_case(plan, partitioned_operation::add_device_value,
                                                    gather, run_scope::from_host);
          ASSERT_FALSE(outcome.copies.empty()) << context;
          for (const auto& copy : outcome.copies) {
            const auto verdict = reference::verify_elementwise(outcome.expected, copy, 0);
            EXPECT_TRUE(verdict.passed()) << context << ": " << verdict.describe();
          }
        }
      }
    }
  }
}

TEST(MultiGpuConformance, HostPeerAndNcclGathersAreIdenticalByteForByte) {
  HANDOFF_REQUIRE_GPUS(2);
  const int gpus = visible_gpus();
  for (const auto& [partitioner, plan] : plans_for(gpus, 100003)) {
    const auto host = run_partitioned_case(plan, partitioned_operation::scale_by_two,
                                           gather_under_test::host_pinned, run_scope::gather);
    for (const auto gather : runnable_gathers(gpus)) {
      // kernel_only has no gather to run alone; its results are compared where they lie.
      const auto scope =
          gather == gather_under_test::none ? run_scope::resident : run_scope::gather;
      const auto other =
          run_partitioned_case(plan, partitioned_operation::scale_by_two, gather, scope);
      for (const auto& copy : other.copies) {
        ASSERT_EQ(copy.size(), host.copies.front().size());
        EXPECT_EQ(std::memcmp(copy.data(), host.copies.front().data(), copy.size() * 4), 0)
            << partitioner << ": " << name_of(gather) << " differs from host_gather_pinned";
      }
    }
  }
}

TEST(MultiGpuConformance, AnotherDevicesPointerIsRefusedBeforeTheLaunch) {
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

TEST(MultiGpuConformance, PeerAccessScopeTurnsOffWhatItTurnedOn) {
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

TEST(MultiGpuConformance, EveryVariantLeavesTheCallersDeviceCurrent) {
  HANDOFF_REQUIRE_GPUS(2);
  const int gpus = visible_gpus();
  const int callers_device = gpus - 1;
  for (const auto gather : runnable_gathers(gpus)) {
    const scoped_device caller(callers_device);
    (void)run_partitioned_case(partition_even(4099, gpus), partitioned_operation::scale_by_two,
                               gather, run_scope::from_host);
    int current = -1;
    ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
    EXPECT_EQ(current, callers_device) << name_of(gather) << " left GPU " << current << " current";
  }
}

}  // namespace
}  // namespace handoff::multi_gpu_tests

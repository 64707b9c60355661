// The multi_gpu pattern on one GPU: every variant still runs and verifies, and the launch check
// refuses host memory, the article's first bug, by name.

#include <gtest/gtest.h>

#include "handoff/device_buffer.hpp"
#include "handoff/patterns/multi_gpu/launch_check.hpp"
#include "handoff/reference/verify.hpp"
#include "partitioned_case.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::multi_gpu_tests {
namespace {

using namespace patterns::multi_gpu;
using reference::partitioned_operation;

void expect_every_copy_matches(const partitioned_outcome& outcome, const std::string& context) {
  ASSERT_FALSE(outcome.copies.empty()) << context;
  for (const auto& copy : outcome.copies) {
    const auto verdict = reference::verify_elementwise(outcome.expected, copy, 0);
    EXPECT_TRUE(verdict.passed()) << context << ": " << verdict.describe();
  }
}

TEST(MultiGpuOneDevice, EveryVariantAndScopeVerifies) {
  HANDOFF_REQUIRE_GPUS(1);
  for (const auto gather : runnable_gathers(1)) {
    for (const auto scope : {run_scope::gather, run_scope::resident, run_scope::from_host}) {
      if (gather == gather_under_test::none && scope == run_scope::gather) continue;
      for (const auto operation :
           {partitioned_operation::scale_by_two, partitioned_operation::add_device_value}) {
        const std::string context = name_of(gather) + " scope " +
                                    std::string(run_scope_name(scope)) + " " +
                                    std::string(reference::partitioned_operation_name(operation));
        expect_every_copy_matches(
            run_partitioned_case(partition_even(4099, 1), operation, gather, scope), context);
      }
    }
  }
}

// Large enough that a pageable cudaMemcpy returns before its DMA lands: the upload must still be
// ordered before the kernel (host_gather once read poison at the tail here).
TEST(MultiGpuOneDevice, LargePageableUploadIsOrderedBeforeTheKernel) {
  HANDOFF_REQUIRE_GPUS(1);
  for (const auto gather : runnable_gathers(1)) {
    expect_every_copy_matches(
        run_partitioned_case(partition_even((1 << 22) + 3, 1),
                             partitioned_operation::add_device_value, gather, run_scope::from_host),
        name_of(gather) + " from_host at 2^22 + 3");
  }
}

TEST(MultiGpuOneDevice, EmptyArrayRunsEveryVariant) {
  HANDOFF_REQUIRE_GPUS(1);
  for (const auto gather : runnable_gathers(1)) {
    const auto outcome = run_partitioned_case(
        partition_even(0, 1), partitioned_operation::scale_by_two, gather, run_scope::from_host);
    for (const auto& copy : outcome.copies)
      EXPECT_TRUE(copy.empty()) << name_of(gather);
  }
}

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

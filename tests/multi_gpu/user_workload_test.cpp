// The example user workload (examples/user_kernel/square_plus_device_value.cu, linked into this
// program as HANDOFF_USER_KERNELS links it into handoff_bench) on a device, through the path the
// article's workloads take: its launches are checked, naming the workload, and a CPU reference that
// disagrees with the kernel is caught by every variant and scope, each element counted as a
// mismatch (handoff_bench's `wrong`). That it verifies against its own reference everywhere is
// conformance_test.cpp's.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/patterns/multi_gpu/launch_check.hpp"
#include "handoff/patterns/multi_gpu/variants.hpp"
#include "handoff/patterns/multi_gpu/workload_registry.hpp"
#include "row_scopes.hpp"
#include "support/gpu_requirement.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::multi_gpu_tests {
namespace {

using namespace patterns::multi_gpu;
using patterns::compute_target;

constexpr const char* example = "square_plus_device_value";

// The user's likely slip: a reference that forgets the device's value.
float square_on_cpu(float input, float /*device_value*/) {
  return input * input;
}

// The example's kernel checked against that reference, registered once for the program.
const std::string& wrong_reference_workload() {
  static const std::string name = [] {
    return register_workload({.name = "square_plus_device_value_wrong_reference",
                              .kernel = find_workload(example).kernel,
                              .reference = square_on_cpu,
                              .max_ulp = find_workload(example).max_ulp})
        .name;
  }();
  return name;
}

TEST(MultiGpuUserWorkload, TheLaunchCheckRefusesHostMemoryNamingTheWorkload) {
  HANDOFF_REQUIRE_GPUS(1);
  std::vector<float> host_part(64, 1.0f);
  const device_buffer<float> output(64);
  try {
    checked_launch(find_workload(example).kernel, 0, nullptr, host_part.data(), output.data(), 64,
                   1.0f);
    FAIL() << "a pageable host array was passed to the user kernel";
  } catch (const kernel_argument_error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(example), std::string::npos) << message;
    EXPECT_NE(message.find("pageable host memory"), std::string::npos) << message;
  }
}

class MultiGpuUserWorkloadRows : public handoff::test_support::row_test<multi_gpu_variants> {};

TEST_P(MultiGpuUserWorkloadRows, AWrongReferenceIsCaughtInEveryScope) {
  HANDOFF_REQUIRE_GPUS(1);
  if (const auto reason = multi_gpu_unavailable_reason(GetParam(), 1); !reason.empty())
    GTEST_SKIP() << reason;
  for (const auto scope : scopes_of(row())) {
    SCOPED_TRACE(GetParam() + ", scope " + std::string(run_scope_name(scope)));
    const multi_gpu_point at{{wrong_reference_workload(), 1, partitioner::even, 4099, 256}, scope};
    auto work = make_multi_gpu_case(at);
    auto session = row().setup(at, compute_target::device);
    session->poison(*work);
    session->run(*work);
    const auto verdict = session->verify(*work);
    EXPECT_GT(verdict.checked, 0u);
    EXPECT_EQ(verdict.mismatches, verdict.checked) << verdict.describe();
    session->shutdown();
  }
}

HANDOFF_INSTANTIATE_ROWS(MultiGpuUserWorkloadRows,
                         handoff::test_support::rows_running_on(multi_gpu_variants(),
                                                                compute_target::device));

}  // namespace
}  // namespace handoff::multi_gpu_tests

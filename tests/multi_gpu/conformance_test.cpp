// The multi_gpu table, row by row (the variants run on devices only; no host stand-in): every
// variant runs and verifies twice, its outputs poisoned between, at the default small size, empty,
// one element and an uneven size, in every scope it has and for every workload (the article's two
// and the example user workload, examples/user_kernel); with every partitioner on every GPU count
// the machine has; and with a pageable upload large enough to return before its DMA lands, which
// must still be ordered before the kernel.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "handoff/device_discovery.hpp"
#include "handoff/patterns/multi_gpu/variants.hpp"
#include "row_scopes.hpp"
#include "support/gpu_requirement.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::multi_gpu_tests {
namespace {

using namespace patterns::multi_gpu;
using patterns::compute_target;

constexpr std::size_t default_small = 4099;  // not a multiple of 4 or of any GPU count
constexpr std::size_t uneven = 70001;        // above a round-robin chunk per device
constexpr std::size_t test_chunk = 256;
// examples/user_kernel/square_plus_device_value.cu, compiled into this program.
constexpr const char* user_example = "square_plus_device_value";

class MultiGpuConformance : public handoff::test_support::row_test<multi_gpu_variants> {
 protected:
  void expect_verifies(const partitioned_config& config, run_scope scope) const {
    SCOPED_TRACE(GetParam() + ": " + std::to_string(config.gpus) + " GPUs, " +
                 std::string(partitioner_name(config.partition)) + ", " +
                 std::to_string(config.elements) + " elements, " + config.workload + ", scope " +
                 std::string(run_scope_name(scope)));
    handoff::test_support::expect_runs_and_verifies(row(), multi_gpu_point{config, scope},
                                                    compute_target::device, make_multi_gpu_case);
  }
};

#define SKIP_UNLESS_RUNNABLE_ON(gpus)                                                        \
  do {                                                                                       \
    if (const auto reason = multi_gpu_unavailable_reason(GetParam(), gpus); !reason.empty()) \
      GTEST_SKIP() << reason;                                                                \
  } while (false)

TEST_P(MultiGpuConformance, VerifiesAtEverySizeAndScopeOnOneGpu) {
  HANDOFF_REQUIRE_GPUS(1);
  SKIP_UNLESS_RUNNABLE_ON(1);
  for (const std::size_t elements : {default_small, std::size_t{0}, std::size_t{1}, uneven}) {
    for (const auto scope : scopes_of(row())) {
      for (const auto workload : {"scale_by_two", "add_device_value", user_example}) {
        expect_verifies({workload, 1, partitioner::even, elements, test_chunk}, scope);
      }
    }
  }
}

TEST_P(MultiGpuConformance, EveryPartitionerAndGpuCountMatchesTheReference) {
  HANDOFF_REQUIRE_GPUS(1);
  const int visible = gpu_count().count;
  SKIP_UNLESS_RUNNABLE_ON(visible);
  for (int gpus = 1; gpus <= visible; ++gpus) {
    for (const auto kind : {partitioner::even, partitioner::round_robin, partitioner::weighted}) {
      // Fewer elements than two devices, and an uneven size above a chunk per device.
      for (const std::size_t elements : {std::size_t{1}, uneven}) {
        for (const auto workload : {"add_device_value", user_example}) {
          expect_verifies({workload, gpus, kind, elements, test_chunk}, run_scope::from_host);
        }
      }
    }
  }
}

// Large enough that a pageable cudaMemcpy returns before its DMA lands: the upload must still be
// ordered before the kernel (host_gather once read poison at the tail here).
TEST_P(MultiGpuConformance, LargeUploadIsOrderedBeforeTheKernel) {
  HANDOFF_REQUIRE_GPUS(1);
  SKIP_UNLESS_RUNNABLE_ON(1);
  expect_verifies(
      {"add_device_value", 1, partitioner::even, (std::size_t{1} << 22) + 3, test_chunk},
      run_scope::from_host);
}

HANDOFF_INSTANTIATE_ROWS(MultiGpuConformance,
                         handoff::test_support::rows_running_on(multi_gpu_variants(),
                                                                compute_target::device));

}  // namespace
}  // namespace handoff::multi_gpu_tests

#pragma once
// One partitioned run for the conformance tests: seeded input, the plan's devices, one gather (or
// none), and every copy of the result it made, next to the CPU reference's answer.

#include <optional>
#include <string>
#include <vector>

#include "handoff/patterns/multi_gpu/gathers.hpp"
#include "handoff/patterns/multi_gpu/partition.hpp"
#include "handoff/reference/partitioned_elementwise.hpp"

namespace handoff::multi_gpu_tests {

enum class gather_under_test { none, host_seed, host_pinned, peer, nccl };

std::string name_of(gather_under_test gather);

// The gathers this build and machine can run (nccl only when built with NCCL; peer only when the
// devices can reach each other).
std::vector<gather_under_test> runnable_gathers(int gpus);

struct partitioned_outcome {
  std::vector<float> expected;
  std::vector<std::vector<float>> copies;  // every copy of the result the gather made
};

partitioned_outcome run_partitioned_case(const patterns::multi_gpu::partition_plan& plan,
                                         reference::partitioned_operation operation,
                                         gather_under_test gather,
                                         patterns::multi_gpu::run_scope scope);

}  // namespace handoff::multi_gpu_tests

// The article's two workloads (seed 004), registered as a user registers their own (README.md,
// "Your own sizes and kernels"). Each is one IEEE single-precision operation, so every device's
// result must match the reference bit for bit (max_ulp 0). The kernels are the library's
// (kernels/src/user_kernels.cu), which read four elements a thread.

#include "handoff/patterns/multi_gpu/workload_registry.hpp"

namespace handoff::patterns::multi_gpu {

void link_article_workloads() noexcept {}

namespace {

float scale_by_two_on_cpu(float input, float /*device_value*/) {
  return input * 2.0f;
}

float add_device_value_on_cpu(float input, float device_value) {
  return input + device_value;
}

}  // namespace

HANDOFF_MULTI_GPU_WORKLOAD({.name = "scale_by_two",
                            .kernel = scale_by_two_kernel(),
                            .reference = scale_by_two_on_cpu,
                            .max_ulp = 0});

// Each device adds its own value, so a part run on the wrong device shows in the result: its
// rows are there to check placement, not to measure another kernel.
HANDOFF_MULTI_GPU_WORKLOAD({.name = "add_device_value",
                            .kernel = add_device_value_kernel(),
                            .reference = add_device_value_on_cpu,
                            .max_ulp = 0,
                            .rows = workload_rows::placement_check});

}  // namespace handoff::patterns::multi_gpu

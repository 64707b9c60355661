#pragma once
// The workloads the multi-GPU pattern runs, by name: each a user kernel, the CPU reference its
// results are verified against, and the tolerance. The article's two (scale_by_two and
// add_device_value, workloads.cpp) are registered here exactly as a user registers one of their
// own, from one .cu file that the build is pointed at (-DHANDOFF_USER_KERNELS, README.md), so the
// benchmarks, the launch check and the verification have one path for both:
//
//   __global__ void my_kernel(const float* input, float* output, unsigned long long count,
//                             float device_value) { ... }
//   float my_kernel_on_cpu(float input, float device_value) { ... }
//   HANDOFF_MULTI_GPU_WORKLOAD({.name = "my_kernel",
//                               .kernel = handoff::user_kernel_of(my_kernel),
//                               .reference = my_kernel_on_cpu,
//                               .max_ulp = 1});

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "handoff/reference/partitioned_elementwise.hpp"
#include "handoff/user_kernel.hpp"

namespace handoff::patterns::multi_gpu {

// Which rows handoff_bench gives a workload. Every size, partitioner and scope (full_sweep) suits
// a kernel being measured; placement_check, the from-host rows at the headline size with the even
// partitioner only, suits a workload that is there to show a part run on the wrong device.
enum class workload_rows { full_sweep, placement_check };

struct workload {
  // Appears in benchmark names as workload:<name>: letters, digits, '_' and '-' only.
  std::string name;
  user_kernel kernel;  // user_kernel_of(a __global__ function); its name is set to the workload's
  // output[i] from input[i] and the device's value (reference::device_value_of), on the CPU.
  reference::element_reference reference = nullptr;
  // How far each device's result may be from the reference, in units in the last place: 0 for one
  // IEEE operation; 1 or more where the device contracts a*b+c into one fused operation, say.
  std::uint32_t max_ulp = 0;
  workload_rows rows = workload_rows::full_sweep;
};

// A workload that cannot be registered: the message says what to change.
class workload_registration_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A name no registered workload has: the message lists those that are.
class unknown_workload_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Adds w, or throws workload_registration_error: an empty name, a name with any character but
// letters, digits, '_' and '-', a name already registered, no kernel function, no reference, or a
// launch shape of zero threads. The registered copy lives as long as the process.
const workload& register_workload(workload w);

const workload& find_workload(std::string_view name);

// Every registered workload, by name, so that benchmark rows come in the same order in every build.
std::vector<const workload*> registered_workloads();

// Registers one workload during static initialisation, from the file that defines it. A mistake
// (a duplicate name, say) then stops the program as it starts, with the error's message.
class workload_registrar {
 public:
  explicit workload_registrar(workload w) { register_workload(std::move(w)); }
};

}  // namespace handoff::patterns::multi_gpu

#define HANDOFF_MULTI_GPU_WORKLOAD_CONCAT_(a, b) a##b
#define HANDOFF_MULTI_GPU_WORKLOAD_NAME_(line) \
  HANDOFF_MULTI_GPU_WORKLOAD_CONCAT_(handoff_workload_, line)

// HANDOFF_MULTI_GPU_WORKLOAD({.name = ..., .kernel = ..., .reference = ..., .max_ulp = ...});
// at namespace scope: one workload registrar per line, private to its file.
#define HANDOFF_MULTI_GPU_WORKLOAD(...)                                            \
  [[maybe_unused]] static const ::handoff::patterns::multi_gpu::workload_registrar \
  HANDOFF_MULTI_GPU_WORKLOAD_NAME_(__LINE__)(::handoff::patterns::multi_gpu::workload __VA_ARGS__)

// A workload of your own for the multi-GPU pattern, in one file: the kernel, its CPU reference,
// the tolerance between them, and the line that registers them under a name. Point the build at
// the file (README.md, "Your own kernel (multi-GPU)"):
//   cmake --preset bench -DHANDOFF_USER_KERNELS=/path/to/square_plus_device_value.cu
// and handoff_bench runs every multi_gpu variant with workload:square_plus_device_value, each
// launch checked, each run's outputs poisoned first and verified against the reference after.

#include "handoff/patterns/multi_gpu/workload_registry.hpp"

namespace {

// The parameter list is fixed: the part of the input this device holds, its output, the part's
// length, and the device's own value (1 + its index, as in the article).
__global__ void square_plus_device_value(const float* input, float* output,
                                         unsigned long long count, float device_value) {
  const unsigned long long i =
      static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) output[i] = input[i] * input[i] + device_value;
}

// One output element on the CPU. nvcc fuses the multiply and the add into one fma, rounded once;
// in double the square is exact and the sum rounds at most once more before the float, so the two
// differ by at most 1 ulp (the tolerance below), the same as when the device does not fuse.
float square_plus_device_value_on_cpu(float input, float device_value) {
  return static_cast<float>(static_cast<double>(input) * input + device_value);
}

}  // namespace

HANDOFF_MULTI_GPU_WORKLOAD({.name = "square_plus_device_value",
                            .kernel = handoff::user_kernel_of(square_plus_device_value),
                            .reference = square_plus_device_value_on_cpu,
                            .max_ulp = 1});

#pragma once
// A kernel handed to the multi-GPU pattern the way the article hands CuPy a RawKernel: an opaque
// function plus its launch shape, launched with one fixed argument list,
//   (const float* input, float* output, unsigned long long count, float device_value).
// The pattern never calls it by its C++ type, so any __global__ function with that parameter list
// can be passed in, and every pointer argument can be checked before the launch.

#include <cuda_runtime_api.h>

#include <cstddef>

namespace handoff {

struct user_kernel {
  const char* name = "";
  const void* function =
      nullptr;  // the address of a __global__ function, as cudaLaunchKernel takes
  unsigned elements_per_thread = 1;
  unsigned threads_per_block = 256;
};

// The one parameter list a user kernel has.
using user_kernel_function = void (*)(const float* input, float* output, unsigned long long count,
                                      float device_value);

// The handle of a __global__ function with that parameter list. Taking the typed pointer, not a
// void*, turns a kernel with another parameter list into a compile error here rather than a
// wrong launch later. The pattern names the kernel after its workload.
inline user_kernel user_kernel_of(user_kernel_function function, unsigned elements_per_thread = 1,
                                  unsigned threads_per_block = 256) noexcept {
  return {"", reinterpret_cast<const void*>(function), elements_per_thread, threads_per_block};
}

// Enqueues kernel over count elements on the current device's stream; returns at once. Checks
// nothing about the pointers: the multi-GPU pattern's launch_check does that first.
void launch_user_kernel(const user_kernel& kernel, const float* input, float* output,
                        std::size_t count, float device_value, cudaStream_t stream);

// Loads kernel into the current device's context now. CUDA loads a kernel at its first launch by
// default (lazy loading), and that load waits for the device: a first launch behind a stalled peer
// would hang where the bounded waits (bounded_wait.hpp) should give up. A set-up calls this.
void load_user_kernel(const user_kernel& kernel);

// The article's two kernels: output = input * 2, and output = input + device_value.
user_kernel scale_by_two_kernel() noexcept;
user_kernel add_device_value_kernel() noexcept;

}  // namespace handoff

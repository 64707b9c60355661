#pragma once
// The article's bug class, caught before the launch: its first example passes host arrays to the
// kernels, and its second launches a part on a device that does not hold it. CUDA would answer
// with an illegal-address error after the fact, which poisons the context, or, with unified
// addressing, quietly read across the bus. Here each pointer argument is asked where it lives
// (cudaPointerGetAttributes) and refused with a message naming the kernel, the argument, the
// device it lives on and the way to fix it.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>

#include "handoff/user_kernel.hpp"

namespace handoff::patterns::multi_gpu {

class kernel_argument_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws kernel_argument_error unless `pointer` is device (or managed) memory that a kernel on
// `device` may use: its own, or a peer's that peer_access_enabled(device, owner) allows.
void check_kernel_argument(const char* kernel, const char* argument, const void* pointer,
                           int device);

// Checks input and output for `device`, makes `device` current for the launch, launches on
// `stream`, and leaves the previous device current again.
void checked_launch(const user_kernel& kernel, int device, cudaStream_t stream, const float* input,
                    float* output, std::size_t count, float device_value);

}  // namespace handoff::patterns::multi_gpu

#pragma once
// A plain streaming copy kernel with 16-byte accesses. The device-memory ceiling takes the better
// of it and cudaMemcpy, since workload kernels are kernels and the copy engine path may differ.

#include <cuda_runtime_api.h>

#include <cstddef>

namespace handoff {

// Both pointers 16-byte aligned and bytes a multiple of 16, or std::invalid_argument.
void launch_copy_kernel(void* destination, const void* source, std::size_t bytes,
                        cudaStream_t stream);

}  // namespace handoff

#pragma once
// out[i] = a[i] + b[i], the workload of seed 000. Enqueued on a stream; returns at once.

#include <cuda_runtime_api.h>

#include <cstddef>

namespace handoff {

void launch_vector_add(const float* a, const float* b, float* out, std::size_t count,
                       cudaStream_t stream);

}  // namespace handoff

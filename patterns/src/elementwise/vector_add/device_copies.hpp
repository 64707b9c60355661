#pragma once
// The copies and the poison the vector add's GPU sessions enqueue on their stream. Private to the
// pattern.

#include <cuda_runtime_api.h>

#include <span>

#include "handoff/cuda_check.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::patterns::elementwise {

inline void poison_device(const device_buffer<float>& buffer, cudaStream_t stream) {
  HANDOFF_CUDA_CHECK(
      cudaMemsetAsync(buffer.data(), reference::poison_byte, buffer.size_bytes(), stream));
}

inline void copy_to_device(float* to, std::span<const float> from, cudaStream_t stream) {
  HANDOFF_CUDA_CHECK(
      cudaMemcpyAsync(to, from.data(), from.size_bytes(), cudaMemcpyHostToDevice, stream));
}

inline void copy_to_host(std::span<float> to, const float* from, cudaStream_t stream) {
  HANDOFF_CUDA_CHECK(
      cudaMemcpyAsync(to.data(), from, to.size_bytes(), cudaMemcpyDeviceToHost, stream));
}

}  // namespace handoff::patterns::elementwise

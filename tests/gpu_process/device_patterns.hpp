#pragma once
// Seeded, never-zero patterns moved to and from device memory and compared bit for bit, shared by
// the cross-process GPU tests and the worker roles they start.

#include <cuda_runtime_api.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "handoff/cuda_check.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::test_support {

inline std::vector<float> seeded_pattern(std::size_t count, std::uint64_t seed) {
  std::vector<float> values(count);
  reference::fill_seeded_nonzero(values, seed);
  return values;
}

inline void upload(void* device, std::span<const float> values, cudaStream_t stream) {
  HANDOFF_CUDA_CHECK(
      cudaMemcpyAsync(device, values.data(), values.size_bytes(), cudaMemcpyHostToDevice, stream));
  HANDOFF_CUDA_CHECK(cudaStreamSynchronize(stream));
}

inline std::vector<float> download(const void* device, std::size_t count, cudaStream_t stream) {
  std::vector<float> values(count);
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(values.data(), device, count * sizeof(float),
                                     cudaMemcpyDeviceToHost, stream));
  HANDOFF_CUDA_CHECK(cudaStreamSynchronize(stream));
  return values;
}

// Elements whose bits differ; a size difference counts every missing element.
inline std::uint64_t bitwise_mismatches(std::span<const float> got,
                                        std::span<const float> expected) {
  std::uint64_t wrong =
      got.size() > expected.size() ? got.size() - expected.size() : expected.size() - got.size();
  const std::size_t common = got.size() < expected.size() ? got.size() : expected.size();
  for (std::size_t index = 0; index < common; ++index) {
    if (std::bit_cast<std::uint32_t>(got[index]) != std::bit_cast<std::uint32_t>(expected[index])) {
      ++wrong;
    }
  }
  return wrong;
}

}  // namespace handoff::test_support

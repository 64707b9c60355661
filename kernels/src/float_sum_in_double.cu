#include <cub/device/device_reduce.cuh>

#include <climits>
#include <cstdint>

#include "handoff/cuda_check.hpp"
#include "handoff/float_sum_in_double.hpp"

namespace handoff {
namespace {

// 32-bit offsets where they suffice: CUB's kernels index faster with them.
template <class Body>
cudaError_t with_offset_type(std::size_t count, Body&& body) {
  if (count <= static_cast<std::size_t>(INT_MAX)) return body(static_cast<int>(count));
  return body(static_cast<std::int64_t>(count));
}

std::size_t scratch_bytes_for(std::size_t count) {
  std::size_t bytes = 0;
  HANDOFF_CUDA_CHECK(with_offset_type(count, [&](auto items) {
    return cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr),
                                  static_cast<double*>(nullptr), items);
  }));
  // CUB reads a null scratch pointer as a size query, so even a zero-byte need gets a byte.
  return bytes > 0 ? bytes : 1;
}

}  // namespace

device_float_sum::device_float_sum(std::size_t count)
    : count_(count), scratch_(scratch_bytes_for(count)) {}

void device_float_sum::enqueue(const float* values, double* result, cudaStream_t stream) const {
  std::size_t bytes = scratch_.size_bytes();
  HANDOFF_CUDA_CHECK(with_offset_type(count_, [&](auto items) {
    return cub::DeviceReduce::Sum(scratch_.data(), bytes, values, result, items, stream);
  }));
  HANDOFF_CUDA_CHECK_LAUNCH();
}

}  // namespace handoff

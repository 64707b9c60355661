#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>

#include <stdexcept>
#include <string>

#include "handoff/cuda_check.hpp"
#include "handoff/sum_of_squares.hpp"

namespace handoff {
namespace {

struct square {
  __host__ __device__ float operator()(float value) const { return value * value; }
};

using squared_values = thrust::transform_iterator<square, const float*>;

// CUB takes a signed 64-bit segment count; a larger one cannot be described to it.
::cuda::std::int64_t segment_count(std::size_t segments) {
  if (segments > static_cast<std::size_t>(INT64_MAX)) {
    throw std::invalid_argument("segmented sum of squares: " + std::to_string(segments) +
                                " segments is more than CUB accepts");
  }
  return static_cast<::cuda::std::int64_t>(segments);
}

}  // namespace

std::size_t sum_of_squares_temp_bytes(std::size_t count) {
  std::size_t bytes = 0;
  HANDOFF_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
      nullptr, bytes, static_cast<const float*>(nullptr), static_cast<float*>(nullptr), count,
      ::cuda::std::plus<float>{}, square{}, 0.0f));
  return bytes;
}

void launch_sum_of_squares(const float* values, std::size_t count, float* out, void* temp,
                           std::size_t temp_bytes, cudaStream_t stream) {
  if (count == 0) {
    // 0.0f is all zero bytes; a memset needs no temporary storage and captures into graphs.
    HANDOFF_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), stream));
    return;
  }
  HANDOFF_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
      temp, temp_bytes, values, out, count, ::cuda::std::plus<float>{}, square{}, 0.0f, stream));
  HANDOFF_CUDA_CHECK_LAUNCH();
}

std::size_t segmented_sum_of_squares_temp_bytes(std::size_t segments) {
  std::size_t bytes = 0;
  const squared_values squared(static_cast<const float*>(nullptr), square{});
  const auto* no_offsets = static_cast<const std::int64_t*>(nullptr);
  HANDOFF_CUDA_CHECK(cub::DeviceSegmentedReduce::Reduce(
      nullptr, bytes, squared, static_cast<float*>(nullptr), segment_count(segments), no_offsets,
      no_offsets, ::cuda::std::plus<float>{}, 0.0f));
  return bytes;
}

void launch_segmented_sum_of_squares(const float* values, const std::int64_t* offsets,
                                     std::size_t segments, float* out, void* temp,
                                     std::size_t temp_bytes, cudaStream_t stream) {
  if (segments == 0) return;
  const squared_values squared(values, square{});
  HANDOFF_CUDA_CHECK(cub::DeviceSegmentedReduce::Reduce(
      temp, temp_bytes, squared, out, segment_count(segments), offsets, offsets + 1,
      ::cuda::std::plus<float>{}, 0.0f, stream));
  HANDOFF_CUDA_CHECK_LAUNCH();
}

}  // namespace handoff

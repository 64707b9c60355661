#include <thrust/iterator/counting_iterator.h>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>

#include "handoff/cuda_check.hpp"
#include "handoff/jacobi.hpp"

namespace handoff {
namespace {

// Maps an index to the squared update there. The difference of two floats is exact in double.
struct squared_update {
  const float* x_new;
  const float* x_old;
  __device__ double operator()(std::uint64_t i) const {
    const double difference = static_cast<double>(x_new[i]) - static_cast<double>(x_old[i]);
    return difference * difference;
  }
};

using index_iterator = thrust::counting_iterator<std::uint64_t>;

cudaError_t transform_reduce(void* temporary, std::size_t& temporary_bytes, const float* x_new,
                             const float* x_old, double* out, std::size_t count,
                             cudaStream_t stream) {
  return cub::DeviceReduce::TransformReduce(
      temporary, temporary_bytes, index_iterator(0), out, static_cast<std::uint64_t>(count),
      cuda::std::plus<double>{}, squared_update{x_new, x_old}, 0.0, stream);
}

std::size_t temporary_bytes_for(std::size_t count) {
  std::size_t bytes = 0;
  if (count > 0) {
    HANDOFF_CUDA_CHECK(transform_reduce(nullptr, bytes, nullptr, nullptr, nullptr, count, nullptr));
  }
  return bytes;
}

}  // namespace

update_norm_reducer::update_norm_reducer(std::size_t count)
    : count_(count), temporary_bytes_(temporary_bytes_for(count)) {
  // At least one byte: CUB takes a null storage pointer as a request for the size.
  if (count_ > 0)
    temporary_ = device_buffer<unsigned char>(std::max<std::size_t>(1, temporary_bytes_));
}

void update_norm_reducer::enqueue(const float* x_new, const float* x_old, double* norm_squared,
                                  cudaStream_t stream) const {
  if (count_ == 0) {
    HANDOFF_CUDA_CHECK(cudaMemsetAsync(norm_squared, 0, sizeof(double), stream));
    return;
  }
  std::size_t bytes = temporary_bytes_;
  HANDOFF_CUDA_CHECK(
      transform_reduce(temporary_.data(), bytes, x_new, x_old, norm_squared, count_, stream));
  HANDOFF_CUDA_CHECK_LAUNCH();
}

}  // namespace handoff

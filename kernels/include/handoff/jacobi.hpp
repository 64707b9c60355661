#pragma once
// The iterative pattern's device work: one Jacobi step of the tridiagonal system of
// reference/jacobi.hpp, x_new[i] = ((b[i] + x[i-1]) + x[i+1]) / diagonal with x[-1] = x[n] = 0,
// and the convergence check's norm. Both are enqueued on a stream and return at once, so they can
// also be captured into a CUDA graph.

#include <cuda_runtime_api.h>

#include <cstddef>

#include "handoff/device_buffer.hpp"

namespace handoff {

// x and x_new must not overlap. A count of 0 enqueues nothing.
void launch_jacobi_1d_step(const float* b, const float* x, float* x_new, std::size_t count,
                           float diagonal, cudaStream_t stream);

// The sum over i of (x_new[i] - x_old[i])^2 in double, written to one double on the device, by a
// CUB transform-reduction. The temporary storage is allocated once, at construction, so enqueue
// allocates nothing and can be captured into a graph.
class update_norm_reducer {
 public:
  explicit update_norm_reducer(std::size_t count);
  std::size_t count() const noexcept { return count_; }
  void enqueue(const float* x_new, const float* x_old, double* norm_squared,
               cudaStream_t stream) const;

 private:
  std::size_t count_;
  device_buffer<unsigned char> temporary_;
  std::size_t temporary_bytes_ = 0;
};

}  // namespace handoff

#include <cstdint>

#include "handoff/cuda_check.hpp"
#include "handoff/jacobi.hpp"

namespace handoff {
namespace {

constexpr int threads_per_block = 256;

__device__ __forceinline__ float jacobi_value(float b, float left, float right, float diagonal) {
  return ((b + left) + right) / diagonal;  // the reference's order, correctly rounded division
}

// Four unknowns per thread: b, x and x_new move as 16-byte accesses, and the two outer neighbours
// come as scalar loads that the neighbouring threads' vectors have already brought into L1, so
// device memory sees each byte once. The thread that holds the last, partial group of four falls
// back to scalar accesses.
__global__ void jacobi_step_float4(const float* __restrict__ b, const float* __restrict__ x,
                                   float* __restrict__ x_new, std::size_t count, float diagonal) {
  const std::size_t group = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t first = group * 4;
  if (first >= count) return;
  const float left = first > 0 ? x[first - 1] : 0.0f;
  if (first + 4 <= count) {
    const float right = first + 4 < count ? x[first + 4] : 0.0f;
    const float4 bv = reinterpret_cast<const float4*>(b)[group];
    const float4 xv = reinterpret_cast<const float4*>(x)[group];
    float4 out;
    out.x = jacobi_value(bv.x, left, xv.y, diagonal);
    out.y = jacobi_value(bv.y, xv.x, xv.z, diagonal);
    out.z = jacobi_value(bv.z, xv.y, xv.w, diagonal);
    out.w = jacobi_value(bv.w, xv.z, right, diagonal);
    reinterpret_cast<float4*>(x_new)[group] = out;
    return;
  }
  float previous = left;
  for (std::size_t i = first; i < count; ++i) {
    const float right = i + 1 < count ? x[i + 1] : 0.0f;
    const float current = x[i];
    x_new[i] = jacobi_value(b[i], previous, right, diagonal);
    previous = current;
  }
}

// For pointers that are not 16-byte aligned (a sub-span of a buffer): one unknown per thread.
__global__ void jacobi_step_scalar(const float* __restrict__ b, const float* __restrict__ x,
                                   float* __restrict__ x_new, std::size_t count, float diagonal) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float left = i > 0 ? x[i - 1] : 0.0f;
  const float right = i + 1 < count ? x[i + 1] : 0.0f;
  x_new[i] = jacobi_value(b[i], left, right, diagonal);
}

bool aligned_to_16(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0;
}

unsigned blocks_for(std::size_t threads) {
  return static_cast<unsigned>((threads + threads_per_block - 1) / threads_per_block);
}

}  // namespace

void launch_jacobi_1d_step(const float* b, const float* x, float* x_new, std::size_t count,
                           float diagonal, cudaStream_t stream) {
  if (count == 0) return;
  if (aligned_to_16(b) && aligned_to_16(x) && aligned_to_16(x_new)) {
    jacobi_step_float4<<<blocks_for((count + 3) / 4), threads_per_block, 0, stream>>>(
        b, x, x_new, count, diagonal);
  } else {
    jacobi_step_scalar<<<blocks_for(count), threads_per_block, 0, stream>>>(b, x, x_new, count,
                                                                            diagonal);
  }
  HANDOFF_CUDA_CHECK_LAUNCH();
}

}  // namespace handoff

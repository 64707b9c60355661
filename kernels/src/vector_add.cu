#include <cstdint>

#include "handoff/cuda_check.hpp"
#include "handoff/vector_add.hpp"

namespace handoff {
namespace {

constexpr int threads_per_block = 256;

// 16-byte loads and stores keep the memory system busy with fewer instructions; the scalar kernel
// covers the tail and any pointer that is not 16-byte aligned.
__global__ void vector_add_float4(const float4* __restrict__ a, const float4* __restrict__ b,
                                  float4* __restrict__ out, std::size_t count4) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count4) {
    const float4 x = a[i];
    const float4 y = b[i];
    out[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

__global__ void vector_add_scalar(const float* __restrict__ a, const float* __restrict__ b,
                                  float* __restrict__ out, std::size_t count) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = a[i] + b[i];
}

bool aligned_to_16(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0;
}

unsigned blocks_for(std::size_t count) {
  return static_cast<unsigned>((count + threads_per_block - 1) / threads_per_block);
}

}  // namespace

void launch_vector_add(const float* a, const float* b, float* out, std::size_t count,
                       cudaStream_t stream) {
  if (count == 0) return;
  std::size_t scalar_begin = 0;
  if (aligned_to_16(a) && aligned_to_16(b) && aligned_to_16(out)) {
    const std::size_t count4 = count / 4;
    if (count4 > 0) {
      vector_add_float4<<<blocks_for(count4), threads_per_block, 0, stream>>>(
          reinterpret_cast<const float4*>(a), reinterpret_cast<const float4*>(b),
          reinterpret_cast<float4*>(out), count4);
      HANDOFF_CUDA_CHECK_LAUNCH();
    }
    scalar_begin = count4 * 4;
  }
  const std::size_t tail = count - scalar_begin;
  if (tail > 0) {
    vector_add_scalar<<<blocks_for(tail), threads_per_block, 0, stream>>>(
        a + scalar_begin, b + scalar_begin, out + scalar_begin, tail);
    HANDOFF_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace handoff

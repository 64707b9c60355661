#include <cstdint>
#include <stdexcept>

#include "handoff/copy_kernel.hpp"
#include "handoff/cuda_check.hpp"

namespace handoff {
namespace {

constexpr int threads_per_block = 256;

__global__ void copy_int4(int4* __restrict__ destination, const int4* __restrict__ source,
                          std::size_t count) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) destination[i] = source[i];
}

bool aligned_to_16(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0;
}

}  // namespace

void launch_copy_kernel(void* destination, const void* source, std::size_t bytes,
                        cudaStream_t stream) {
  if (!aligned_to_16(destination) || !aligned_to_16(source) || bytes % 16 != 0) {
    throw std::invalid_argument("launch_copy_kernel needs 16-byte aligned pointers and sizes");
  }
  const std::size_t count = bytes / 16;
  if (count == 0) return;
  const auto blocks = static_cast<unsigned>((count + threads_per_block - 1) / threads_per_block);
  copy_int4<<<blocks, threads_per_block, 0, stream>>>(static_cast<int4*>(destination),
                                                      static_cast<const int4*>(source), count);
  HANDOFF_CUDA_CHECK_LAUNCH();
}

}  // namespace handoff

#include "handoff/cuda_check.hpp"
#include "handoff/spin.hpp"

namespace handoff {
namespace {

__device__ std::uint64_t global_nanoseconds() {
  std::uint64_t now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

// One thread, reading the GPU's global timer: the wait does not depend on the SM clock.
__global__ void spin(std::uint64_t nanoseconds) {
  const std::uint64_t until = global_nanoseconds() + nanoseconds;
  while (global_nanoseconds() < until) {
  }
}

__global__ void spin_until(const volatile unsigned* released) {
  while (*released == 0u) {
  }
}

}  // namespace

void spin_on_stream(cudaStream_t stream, std::uint64_t nanoseconds) {
  spin<<<1, 1, 0, stream>>>(nanoseconds);
  HANDOFF_CUDA_CHECK_LAUNCH();
}

void spin_until_released(cudaStream_t stream, const volatile unsigned* released) {
  spin_until<<<1, 1, 0, stream>>>(released);
  HANDOFF_CUDA_CHECK_LAUNCH();
}

}  // namespace handoff

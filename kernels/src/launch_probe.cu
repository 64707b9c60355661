#include "handoff/cuda_check.hpp"
#include "handoff/launch_probe.hpp"

namespace handoff {
namespace {

__global__ void counter_increment(unsigned long long* counter) {
  *counter += 1;
}

}  // namespace

void launch_counter_increment(unsigned long long* counter, cudaStream_t stream) {
  counter_increment<<<1, 1, 0, stream>>>(counter);
  HANDOFF_CUDA_CHECK_LAUNCH();
}

}  // namespace handoff

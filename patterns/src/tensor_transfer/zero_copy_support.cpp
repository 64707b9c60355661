#include "zero_copy_support.hpp"

#include <cuda_runtime_api.h>

#include <string>

#include "handoff/cuda_check.hpp"
#include "handoff/patterns/tensor_transfer/transfer_session.hpp"

namespace handoff::patterns {

int current_device() {
  int device = 0;
  HANDOFF_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

void copy_device_range(std::byte* destination, const std::byte* source, std::size_t bytes,
                       const stream& on) {
  if (bytes > 0) {
    HANDOFF_CUDA_CHECK(
        cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToDevice, on.get()));
  }
  on.synchronize();
}

void require_size(std::uint64_t announced, const tensor_memory& destination) {
  if (announced != destination.bytes()) {
    throw transfer_protocol_error("the sender shares " + std::to_string(announced) +
                                  " bytes; the receiver expects " +
                                  std::to_string(destination.bytes()));
  }
}

}  // namespace handoff::patterns

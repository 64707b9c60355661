#include "handoff/patterns/postproc_split/computed_result.hpp"

#include <cuda_runtime_api.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "handoff/cuda_check.hpp"

namespace handoff::patterns::postproc_split {

void copy_back(const computed_result& c, std::span<float> destination) {
  if (destination.size() != c.values.size()) {
    throw std::invalid_argument("copy_back: c has " + std::to_string(c.values.size()) +
                                " floats, the destination " + std::to_string(destination.size()));
  }
  if (c.values.empty()) return;
  if (c.target == compute_target::device) {
    HANDOFF_CUDA_CHECK(cudaMemcpy(destination.data(), c.values.data(), c.values.size_bytes(),
                                  cudaMemcpyDeviceToHost));
  } else {
    std::memcpy(destination.data(), c.values.data(), c.values.size_bytes());
  }
}

}  // namespace handoff::patterns::postproc_split

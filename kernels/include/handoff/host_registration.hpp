#pragma once
// Page-locks existing host memory (a shared-memory mapping, say) for the lifetime of the object, so
// that copies to and from it run at the pinned rate and asynchronously. Move-only.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>
#include <utility>

#include "handoff/cuda_check.hpp"

namespace handoff {

class host_registration {
 public:
  explicit host_registration(std::span<std::byte> memory) : memory_(memory) {
    if (!memory_.empty()) {
      HANDOFF_CUDA_CHECK(cudaHostRegister(memory_.data(), memory_.size(), cudaHostRegisterDefault));
    }
  }
  host_registration(host_registration&& other) noexcept
      : memory_(std::exchange(other.memory_, {})) {}
  host_registration& operator=(host_registration&& other) noexcept {
    if (this != &other) {
      release();
      memory_ = std::exchange(other.memory_, {});
    }
    return *this;
  }
  host_registration(const host_registration&) = delete;
  host_registration& operator=(const host_registration&) = delete;
  ~host_registration() { release(); }

 private:
  void release() noexcept {
    if (!memory_.empty()) HANDOFF_CUDA_CHECK_NOEXCEPT(cudaHostUnregister(memory_.data()));
    memory_ = {};
  }

  std::span<std::byte> memory_;
};

}  // namespace handoff

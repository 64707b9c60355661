#pragma once
// Move-only owners of device memory and pinned host memory. A zero-length buffer allocates nothing,
// so sizes of 0 flow through every variant without special cases.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <span>

#include "handoff/cuda_check.hpp"

namespace handoff {

struct device_free {
  void operator()(void* pointer) const noexcept { HANDOFF_CUDA_CHECK_NOEXCEPT(cudaFree(pointer)); }
};

struct pinned_free {
  void operator()(void* pointer) const noexcept {
    HANDOFF_CUDA_CHECK_NOEXCEPT(cudaFreeHost(pointer));
  }
};

template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t count) : count_(count) {
    if (count == 0) return;
    void* raw = nullptr;
    HANDOFF_CUDA_CHECK(cudaMalloc(&raw, count * sizeof(T)));
    memory_.reset(static_cast<T*>(raw));
  }

  T* data() const noexcept { return memory_.get(); }
  std::size_t size() const noexcept { return count_; }
  std::size_t size_bytes() const noexcept { return count_ * sizeof(T); }

 private:
  std::unique_ptr<T, device_free> memory_;
  std::size_t count_ = 0;
};

template <class T>
class pinned_buffer {
 public:
  pinned_buffer() = default;
  explicit pinned_buffer(std::size_t count) : count_(count) {
    if (count == 0) return;
    void* raw = nullptr;
    HANDOFF_CUDA_CHECK(cudaMallocHost(&raw, count * sizeof(T)));
    memory_.reset(static_cast<T*>(raw));
  }

  T* data() const noexcept { return memory_.get(); }
  std::size_t size() const noexcept { return count_; }
  std::size_t size_bytes() const noexcept { return count_ * sizeof(T); }
  std::span<T> span() const noexcept { return {memory_.get(), count_}; }

 private:
  std::unique_ptr<T, pinned_free> memory_;
  std::size_t count_ = 0;
};

}  // namespace handoff

#pragma once
// Move-only owners of device memory and pinned host memory. A zero-length buffer allocates nothing,
// so sizes of 0 flow through every variant without special cases.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <span>

#include "handoff/cuda_check.hpp"
#include "handoff/fork_guard.hpp"

namespace handoff {

struct device_memory {
  static void* allocate(std::size_t bytes) {
    enter_cuda();  // a forked child fails here, by name, rather than deep inside the runtime
    void* raw = nullptr;
    HANDOFF_CUDA_CHECK(cudaMalloc(&raw, bytes));
    return raw;
  }
  struct release {
    void operator()(void* pointer) const noexcept {
      HANDOFF_CUDA_CHECK_NOEXCEPT(cudaFree(pointer));
    }
  };
};

// Page-locked host memory: the copy engines read and write it directly, without staging.
struct pinned_memory {
  static void* allocate(std::size_t bytes) {
    enter_cuda();
    void* raw = nullptr;
    HANDOFF_CUDA_CHECK(cudaMallocHost(&raw, bytes));
    return raw;
  }
  struct release {
    void operator()(void* pointer) const noexcept {
      HANDOFF_CUDA_CHECK_NOEXCEPT(cudaFreeHost(pointer));
    }
  };
};

template <class T, class Memory>
class cuda_buffer {
 public:
  cuda_buffer() = default;
  explicit cuda_buffer(std::size_t count) : count_(count) {
    if (count > 0) memory_.reset(static_cast<T*>(Memory::allocate(count * sizeof(T))));
  }

  T* data() const noexcept { return memory_.get(); }
  std::size_t size() const noexcept { return count_; }
  std::size_t size_bytes() const noexcept { return count_ * sizeof(T); }
  // A device buffer's span is for passing pointer and length together; host code must not
  // dereference it.
  std::span<T> span() const noexcept { return {memory_.get(), count_}; }

 private:
  std::unique_ptr<T, typename Memory::release> memory_;
  std::size_t count_ = 0;
};

template <class T>
using device_buffer = cuda_buffer<T, device_memory>;
template <class T>
using pinned_buffer = cuda_buffer<T, pinned_memory>;

}  // namespace handoff

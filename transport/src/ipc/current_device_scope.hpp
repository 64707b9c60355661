#pragma once
// Makes a device current for the life of a scope and then restores the caller's. The driver calls
// made inside (pointer queries, cuMem*) act on the current context, and cudaSetDevice makes the
// device's primary context current even on a thread that has not used CUDA before.

#include <cuda_runtime_api.h>

#include "handoff/cuda_check.hpp"

namespace handoff::transport {

class current_device_scope {
 public:
  explicit current_device_scope(int device) {
    HANDOFF_CUDA_CHECK(cudaGetDevice(&previous_));
    HANDOFF_CUDA_CHECK(cudaSetDevice(device));
    restore_ = previous_ != device;
  }
  current_device_scope(const current_device_scope&) = delete;
  current_device_scope& operator=(const current_device_scope&) = delete;
  ~current_device_scope() {
    if (restore_) HANDOFF_CUDA_CHECK_NOEXCEPT(cudaSetDevice(previous_));
  }

 private:
  int previous_ = 0;
  bool restore_ = false;
};

}  // namespace handoff::transport

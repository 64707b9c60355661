#pragma once
// Makes a device current for a scope and restores the one that was current before. The article's
// loop over devices leaves the last one current, so whatever the caller does next runs on a device
// it never chose; every multi-device loop in the suite goes through this instead.

#include <cuda_runtime_api.h>

#include "handoff/cuda_check.hpp"

namespace handoff {

class scoped_device {
 public:
  explicit scoped_device(int device) {
    HANDOFF_CUDA_CHECK(cudaGetDevice(&previous_));
    HANDOFF_CUDA_CHECK(cudaSetDevice(device));
  }
  scoped_device(const scoped_device&) = delete;
  scoped_device& operator=(const scoped_device&) = delete;
  ~scoped_device() { HANDOFF_CUDA_CHECK_NOEXCEPT(cudaSetDevice(previous_)); }

 private:
  int previous_ = 0;
};

}  // namespace handoff

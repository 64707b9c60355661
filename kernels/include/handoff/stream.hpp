#pragma once
// Move-only owners of CUDA streams and events.

#include <cuda_runtime_api.h>

#include <memory>
#include <type_traits>

#include "handoff/cuda_check.hpp"
#include "handoff/fork_guard.hpp"

namespace handoff {

struct stream_destroy {
  void operator()(cudaStream_t handle) const noexcept {
    HANDOFF_CUDA_CHECK_NOEXCEPT(cudaStreamDestroy(handle));
  }
};

struct event_destroy {
  void operator()(cudaEvent_t handle) const noexcept {
    HANDOFF_CUDA_CHECK_NOEXCEPT(cudaEventDestroy(handle));
  }
};

class stream {
 public:
  // Non-blocking, so that work on the legacy default stream never serialises a measurement.
  stream() {
    enter_cuda();  // a forked child fails here, by name, rather than deep inside the runtime
    cudaStream_t raw = nullptr;
    HANDOFF_CUDA_CHECK(cudaStreamCreateWithFlags(&raw, cudaStreamNonBlocking));
    handle_.reset(raw);
  }
  cudaStream_t get() const noexcept { return handle_.get(); }
  void synchronize() const { HANDOFF_CUDA_CHECK(cudaStreamSynchronize(get())); }

 private:
  std::unique_ptr<std::remove_pointer_t<cudaStream_t>, stream_destroy> handle_;
};

class event {
 public:
  explicit event(unsigned flags = cudaEventDefault) {
    enter_cuda();
    cudaEvent_t raw = nullptr;
    HANDOFF_CUDA_CHECK(cudaEventCreateWithFlags(&raw, flags));
    handle_.reset(raw);
  }
  cudaEvent_t get() const noexcept { return handle_.get(); }
  void record(cudaStream_t on) const { HANDOFF_CUDA_CHECK(cudaEventRecord(get(), on)); }
  void synchronize() const { HANDOFF_CUDA_CHECK(cudaEventSynchronize(get())); }
  // Without blocking: whether the work before the last record has finished (cudaErrorNotReady is
  // "not yet"; any other error throws).
  bool finished() const {
    const cudaError_t status = cudaEventQuery(get());
    if (status == cudaErrorNotReady) return false;
    HANDOFF_CUDA_CHECK(status);
    return true;
  }

 private:
  std::unique_ptr<std::remove_pointer_t<cudaEvent_t>, event_destroy> handle_;
};

// Milliseconds between two recorded events; waits for the later one.
inline float elapsed_milliseconds(const event& start, const event& stop) {
  stop.synchronize();
  float milliseconds = 0.0f;
  HANDOFF_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start.get(), stop.get()));
  return milliseconds;
}

}  // namespace handoff

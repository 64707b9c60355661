#pragma once
// A stuck peer for the multi_gpu tests: a kernel on one device's stream that spins until released.
// Every wait of a run on that device, or on a device that waits for it (a collective, a join),
// must then give up within HANDOFF_GPU_WAIT_SECONDS rather than hang (bounded_wait.hpp).

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <string>

#include "handoff/device_buffer.hpp"
#include "handoff/scoped_device.hpp"
#include "handoff/spin.hpp"

namespace handoff::multi_gpu_tests {

class stuck_peer {
 public:
  // Plants the spinning kernel on stream, a stream of device.
  stuck_peer(int device, cudaStream_t stream) : stream_(stream) {
    released_.data()[0] = 0u;
    const scoped_device on_device(device);
    spin_until_released(stream, released_.data());
  }
  stuck_peer(const stuck_peer&) = delete;
  stuck_peer& operator=(const stuck_peer&) = delete;
  // Released however the test ends, so that the process can free its memory and exit.
  ~stuck_peer() {
    release();
    (void)cudaStreamSynchronize(stream_);
  }

  void release() { static_cast<volatile unsigned*>(released_.data())[0] = 1u; }

 private:
  pinned_buffer<unsigned> released_{1};
  cudaStream_t stream_;
};

// Sets a short wait limit for one test, and puts the old one back.
class short_wait_limit {
 public:
  short_wait_limit() {
    if (const char* old = std::getenv(variable)) {
      had_ = true;
      old_ = old;
    }
    ::setenv(variable, "1", 1);
  }
  short_wait_limit(const short_wait_limit&) = delete;
  short_wait_limit& operator=(const short_wait_limit&) = delete;
  ~short_wait_limit() {
    if (had_) {
      ::setenv(variable, old_.c_str(), 1);
    } else {
      ::unsetenv(variable);
    }
  }

 private:
  static constexpr const char* variable = "HANDOFF_GPU_WAIT_SECONDS";
  bool had_ = false;
  std::string old_;
};

}  // namespace handoff::multi_gpu_tests

#pragma once
// The elementwise pattern's vector add, one class per variant. This is the template the later
// patterns copy: a variant owns its buffers, set up outside the timed region, and offers
//   poison_output()  fill every output it writes with NaN bytes (before each timed run),
//   run() / enqueue() one complete handoff: CPU variants finish before returning, GPU variants
//                    enqueue on stream() so the harness can time them with events,
//   result()         the output as the user would read it, copied to the host if need be.
// Inputs start where a user's data starts: pageable host memory.

#include <cuda_runtime_api.h>

#include <span>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns::elementwise {

struct host_inputs {
  std::span<const float> a;
  std::span<const float> b;
};

// The inputs, once checked: a and b must have the same length, or std::invalid_argument.
host_inputs checked(host_inputs inputs);

class vector_add_cpu_serial {
 public:
  explicit vector_add_cpu_serial(host_inputs inputs);
  void poison_output();
  void run();
  std::span<const float> result() const { return out_; }

 private:
  host_inputs inputs_;
  std::vector<float> out_;
};

// Threads are started for each call, as a script's thread pool would be used per batch; the
// slice per thread is at least reference::parallel_grain elements, so small inputs use fewer.
class vector_add_cpu_threads {
 public:
  explicit vector_add_cpu_threads(host_inputs inputs);
  void poison_output();
  void run();
  std::span<const float> result() const { return out_; }
  unsigned threads_used() const noexcept { return threads_used_; }  // by the latest run

 private:
  host_inputs inputs_;
  std::vector<float> out_;
  unsigned threads_used_ = 0;
};

// The recipe as seed 000 writes it: pageable copies in, the kernel, a pageable copy out.
class vector_add_gpu_transfers {
 public:
  explicit vector_add_gpu_transfers(host_inputs inputs);
  void poison_output();
  void enqueue();
  cudaStream_t stream() const noexcept { return stream_.get(); }
  std::span<const float> result();

 private:
  host_inputs inputs_;
  handoff::stream stream_;
  device_buffer<float> device_a_, device_b_, device_out_;
  std::vector<float> out_;
};

// The same handoff from page-locked host memory: the copy engines read and write it directly.
class vector_add_gpu_transfers_pinned {
 public:
  explicit vector_add_gpu_transfers_pinned(host_inputs inputs);
  void poison_output();
  void enqueue();
  cudaStream_t stream() const noexcept { return stream_.get(); }
  std::span<const float> result();

 private:
  handoff::stream stream_;
  pinned_buffer<float> a_, b_, out_;
  device_buffer<float> device_a_, device_b_, device_out_;
};

// The data already lives on the device: only the kernel runs.
class vector_add_gpu_resident {
 public:
  explicit vector_add_gpu_resident(host_inputs inputs);
  void poison_output();
  void enqueue();
  cudaStream_t stream() const noexcept { return stream_.get(); }
  std::span<const float> result();

 private:
  handoff::stream stream_;
  device_buffer<float> device_a_, device_b_, device_out_;
  std::vector<float> out_;
};

}  // namespace handoff::patterns::elementwise

#pragma once
// What device_loop and graph share: the system and the state resident on the device, two state
// buffers that the iterations ping-pong between, and the norms of the convergence checks. Iteration
// k (1-based) reads x_(k-1) (x0 itself for k = 1, so no copy starts a run) and writes
// x_k into state buffer (k - 1) % 2; every buffer a run writes is poisoned before it.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/jacobi.hpp"
#include "handoff/patterns/iterative/jacobi_problem.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns::iterative {

class device_jacobi_state {
 public:
  device_jacobi_state(jacobi_problem problem, int check_every);

  const jacobi_problem& problem() const noexcept { return problem_; }
  std::size_t unknowns() const noexcept { return problem_.b.size(); }
  cudaStream_t stream() const noexcept { return stream_.get(); }
  // The iterations after which a run checks convergence; check c writes norm slot c.
  const std::vector<int>& checks() const noexcept { return checks_; }

  void enqueue_step(int k) const;
  // ||x_k - x_(k-1)||^2 into device norm slot `check`.
  void enqueue_check(int k, std::size_t check) const;
  // Device norm slots [0, count) into the pinned host slots.
  void enqueue_norms_download(std::size_t first, std::size_t count) const;
  double host_norm_squared(std::size_t check) const { return host_norms_.data()[check]; }

  // NaN into both state buffers and every norm slot, on the device and the host; waits.
  void poison();
  // x_k on the host, for the last two iterations only (the buffers hold no others:
  // std::out_of_range otherwise); waits for the stream.
  std::vector<float> download_iterate(int k) const;

 private:
  const float* input_of(int k) const;
  float* output_of(int k) const;

  jacobi_problem problem_;
  std::vector<int> checks_;
  handoff::stream stream_;
  device_buffer<float> b_, x0_;
  device_buffer<float> state_[2];
  device_buffer<double> norms_;
  pinned_buffer<double> host_norms_;
  update_norm_reducer reducer_;
};

}  // namespace handoff::patterns::iterative

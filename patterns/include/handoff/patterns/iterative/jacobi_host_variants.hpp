#pragma once
// The variants whose host touches the state every iteration:
//   jacobi_cpu_serial  the CPU figure: one thread, float, no device at all;
//   jacobi_host_loop   the seed's shape: the coordinator holds the state and ships it to the GPU
//                      for every step (h2d of x, one kernel, d2h of x_new, the host takes x_new as
//                      the next x).
// Both follow the elementwise template: poison_output() before each timed run, run() one complete
// solve, result() x after the last step.

#include <cuda_runtime_api.h>

#include <span>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/patterns/iterative/jacobi_problem.hpp"
#include "handoff/patterns/stage_times.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns::iterative {

// One float step on the host, in the reference's order of additions.
void jacobi_step_on_host(std::span<const float> b, std::span<const float> x, std::span<float> x_new,
                         float diagonal);

class jacobi_cpu_serial {
 public:
  explicit jacobi_cpu_serial(jacobi_problem problem);
  void poison_output();
  void run();
  std::span<const float> result() const;

 private:
  jacobi_problem problem_;
  std::vector<float> state_[2];  // iteration k writes state_[(k - 1) % 2]
};

// The host buffers are pinned: the figure is the round trip itself, without the staging copies
// that pageable memory adds, so device_loop and graph are set against the best a host loop can do.
// b is uploaded once, at construction: it is the system, not the state.
class jacobi_host_loop {
 public:
  explicit jacobi_host_loop(jacobi_problem problem);
  void poison_output();
  // Blocks: the host waits for every iteration's x_new before it ships the next x. Returns the
  // run's seconds in h2d, kernel and d2h, timed with events on the stream.
  stage_times run();
  std::span<const float> result() const;

 private:
  jacobi_problem problem_;
  handoff::stream stream_;
  pinned_buffer<float> x0_;
  pinned_buffer<float> state_[2];  // iteration k brings x_k back into state_[(k - 1) % 2]
  device_buffer<float> device_b_, device_x_, device_x_new_;
  event before_upload_, after_upload_, after_kernel_, after_download_;
};

}  // namespace handoff::patterns::iterative

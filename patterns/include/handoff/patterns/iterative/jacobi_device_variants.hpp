#pragma once
// The variants whose state stays on the device:
//   jacobi_device_loop  one kernel launch per iteration, ping-ponging two buffers; every
//                       check_every iterations the host checks convergence: a CUB reduction of the
//                       update norm, a copy of that one double to the host, and a comparison there;
//   jacobi_graph        the same launches and checks captured once into a CUDA graph, launched as
//                       one; the host reads the checks' norms when the graph is done.
// Both run every iteration whatever the checks find, so all the variants do the same work; the
// host's verdict is kept in convergence(). enqueue() returns when the run is complete (the host
// has read the last norm), so timing it with events on stream() covers the host's part too.

#include <cuda_runtime_api.h>

#include <vector>

#include "handoff/cuda_graph.hpp"
#include "handoff/patterns/iterative/device_jacobi_state.hpp"
#include "handoff/patterns/stage_times.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns::iterative {

class jacobi_device_loop {
 public:
  explicit jacobi_device_loop(jacobi_problem problem, int check_every = default_check_every);
  void poison_output();
  // Returns the run's seconds: kernel (the steps and the reductions), d2h (the norms), post (the
  // host's comparisons).
  stage_times enqueue();
  cudaStream_t stream() const noexcept { return state_.stream(); }
  std::vector<float> result() const { return state_.download_iterate(iterations()); }
  // x one iteration earlier: with result(), what the last check's norm was taken over.
  std::vector<float> previous_iterate() const { return state_.download_iterate(iterations() - 1); }
  const convergence_log& convergence() const noexcept { return log_; }

 private:
  int iterations() const noexcept { return state_.problem().iterations; }

  device_jacobi_state state_;
  event segment_start_, after_reduction_, after_download_;
  convergence_log log_;
};

class jacobi_graph {
 public:
  // Captures and instantiates the graph; nothing is left to build when enqueue() runs.
  explicit jacobi_graph(jacobi_problem problem, int check_every = default_check_every);
  void poison_output();
  // Returns the run's seconds: kernel (the whole graph, its one small copy of the norms included)
  // and post (the host's comparisons).
  stage_times enqueue();
  cudaStream_t stream() const noexcept { return state_.stream(); }
  std::vector<float> result() const { return state_.download_iterate(iterations()); }
  std::vector<float> previous_iterate() const { return state_.download_iterate(iterations() - 1); }
  const convergence_log& convergence() const noexcept { return log_; }
  std::size_t graph_nodes() const noexcept { return nodes_; }

 private:
  int iterations() const noexcept { return state_.problem().iterations; }

  device_jacobi_state state_;
  cuda_graph graph_;
  cuda_graph_exec exec_;
  std::size_t nodes_ = 0;
  event before_launch_, after_graph_;
  convergence_log log_;
};

}  // namespace handoff::patterns::iterative

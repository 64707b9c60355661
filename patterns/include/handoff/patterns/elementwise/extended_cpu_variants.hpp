#pragma once
// The in-process CPU variants of seed 002's workloads (the spawned-process one is cpu_map, in
// map_pool.hpp; OpenBLAS's is in extended_cpu_blas.hpp). Same shape as the vector add's variants:
// buffers owned, set up outside the timed region; poison_output(), run(), result().

#include <span>
#include <vector>

#include "handoff/patterns/elementwise/extended_problem.hpp"

namespace handoff::patterns::elementwise {

// One contiguous chunk per thread (reference::parallel_for), threads started per call as a
// script's thread pool would be used per batch. square and neg_b_over_a split the elements,
// affine splits the rows of Y and runs a blocked loop (not BLAS) in each; small inputs use fewer
// threads, down to the calling thread alone.
class elementwise_cpu_chunked {
 public:
  explicit elementwise_cpu_chunked(extended_problem problem);
  void poison_output();
  void run();
  std::span<const float> result() const { return out_; }
  unsigned threads_used() const noexcept { return threads_used_; }  // by the latest run

 private:
  extended_problem problem_;
  std::vector<float> out_;
  unsigned threads_used_ = 0;
};

}  // namespace handoff::patterns::elementwise

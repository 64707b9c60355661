#pragma once
// Events recorded between the steps of a device run (inside the region measure_gpu_region times),
// so a row can report its stage times from the same runs. measure_gpu_region runs its body once
// untimed before the timed runs; that first run's marks are not counted.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "handoff/stream.hpp"

namespace handoff::bench {

class stage_marks {
 public:
  // spans + 1 events: span i lies between mark i and mark i + 1.
  explicit stage_marks(std::size_t spans);

  // At the start of every run, before any mark: counts the previous run if it was a timed one.
  void begin_run();
  void mark(std::size_t index, cudaStream_t stream) const;
  // After the timed loop: counts the last run. Returns seconds per span, summed over timed runs.
  const std::vector<double>& finish();

 private:
  void collect();

  std::vector<event> events_;
  std::vector<double> seconds_;
  int runs_ = 0;
};

}  // namespace handoff::bench

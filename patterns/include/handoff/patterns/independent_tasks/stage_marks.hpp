#pragma once
// Events recorded between the steps of a device run, inside the region the driver times with
// events on the same stream, so a row reports its stage times from the same runs. The driver runs
// a session once untimed after each report before its timed runs; that first run's marks are not
// counted. Reading a run's marks waits for nothing: the driver has waited for the run's end before
// the next begins.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "handoff/stream.hpp"

namespace handoff::patterns::independent_tasks {

class stage_marks {
 public:
  // spans + 1 events: span i lies between mark i and mark i + 1.
  explicit stage_marks(std::size_t spans);

  // At the start of every run, before any mark: counts the previous run if it was a timed one.
  void begin_run();
  void mark(std::size_t index, cudaStream_t stream) const;
  // Counts the last run; returns the mean seconds of each span over the timed runs since the last
  // report (0 without any), and starts anew.
  std::vector<double> report();

 private:
  void collect();

  std::vector<event> events_;
  std::vector<double> seconds_;
  int runs_ = 0;
};

}  // namespace handoff::patterns::independent_tasks

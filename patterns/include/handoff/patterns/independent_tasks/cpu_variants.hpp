#pragma once
// The CPU references of independent_tasks: every dataset's sum of squares on one thread
// (cpu_serial), or the datasets spread over threads (cpu_threads). cpu_sum_of_squares is also what
// the process variants' workers compute with the host stand-in for the device.

#include <span>
#include <vector>

#include "handoff/patterns/independent_tasks/datasets.hpp"

namespace handoff::patterns::independent_tasks {

// Eight double-precision lanes: as fast as a float loop once vectorised, and within the suite's
// 1e-5 of the reference at any size the benchmarks use.
float cpu_sum_of_squares(std::span<const float> values) noexcept;

class cpu_serial {
 public:
  explicit cpu_serial(const dataset_batch& batch);
  void poison_output();
  void run();
  std::span<const float> result() const { return sums_; }

 private:
  const dataset_batch* batch_;
  std::vector<float> sums_;
};

// Threads are started for each call, as a script's thread pool would be used per batch; each
// thread gets whole datasets, at least reference::parallel_grain elements' worth of them.
class cpu_threads {
 public:
  explicit cpu_threads(const dataset_batch& batch);
  void poison_output();
  void run();
  std::span<const float> result() const { return sums_; }
  unsigned threads_used() const noexcept { return threads_used_; }  // by the latest run

 private:
  const dataset_batch* batch_;
  std::vector<float> sums_;
  unsigned threads_used_ = 0;
};

}  // namespace handoff::patterns::independent_tasks

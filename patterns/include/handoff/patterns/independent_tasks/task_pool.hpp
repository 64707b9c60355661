#pragma once
// The seed and few_workers variants: multiprocessing.Pool(processes=N).map(gpu_task, datasets).
// N spawned workers (task_worker.hpp), each with its own CUDA context on the device target; every
// dataset travels by value through its worker's channel; results come back in dataset order.
// Tasks go out one at a time to whichever worker is free, as Pool.map does with 100 tasks for 100
// processes (chunksize 1).
//
// Every wait has a deadline (patience). A worker that dies mid-batch fails map() with worker_died,
// naming it; the pool is then broken and refuses further batches, and its destructor kills and
// reaps every worker. No shared memory is used, so none can be left held.

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/stage_times.hpp"
#include "handoff/transport/process/batch_latch.hpp"
#include "handoff/transport/process/worker_pool.hpp"

namespace handoff::patterns::independent_tasks {

struct task_pool_options {
  std::size_t workers = 0;  // 0 is std::invalid_argument
  compute_target target = compute_target::device;
  // The longest any one wait may take: every worker's start (its context included), each reply.
  std::chrono::milliseconds patience = std::chrono::seconds(120);
  std::chrono::milliseconds task_delay{0};  // see task_worker_arguments
  std::string name = "task_worker";         // workers are "<name>-<index>"
};

struct batch_result {
  std::vector<float> sums;  // one per dataset, in dataset order
  // serialize: the coordinator writing datasets into the channels. deserialize, h2d, kernel, d2h:
  // the workers' own times, averaged over the workers that ran tasks, since they run side by side.
  stage_times stages;
  double seconds = 0;  // the batch by the wall clock
  std::size_t workers_used = 0;
};

// The number of workers few_workers uses: one per core, at most one per dataset, at least one.
std::size_t workers_for_cores(std::size_t datasets);

class task_pool {
 public:
  // Starts the workers and waits until every one reports ready.
  explicit task_pool(const task_pool_options& options);

  batch_result map(std::span<const std::span<const float>> datasets);

  // Closes every channel and waits for the workers to exit cleanly (worker_died if one did not).
  void shutdown();

  std::size_t size() const noexcept { return pool_->size(); }
  const std::string& worker_name(std::size_t index) const { return pool_->worker_name(index); }
  pid_t worker_pid(std::size_t index) const { return pool_->worker_pid(index); }
  compute_target target() const noexcept { return options_.target; }
  double start_seconds() const noexcept { return start_seconds_; }  // spawn to all ready

 private:
  batch_result run_batch(std::span<const std::span<const float>> datasets);
  void await_ready();

  task_pool_options options_;
  std::optional<transport::worker_pool> pool_;  // engaged by the constructor
  double start_seconds_ = 0;
  transport::batch_latch latch_;
};

}  // namespace handoff::patterns::independent_tasks

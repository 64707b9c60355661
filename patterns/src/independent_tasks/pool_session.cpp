#include "pool_session.hpp"

#include <algorithm>
#include <thread>

#include "device_floor.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::patterns::independent_tasks {

task_pool_options pool_options(std::size_t workers, compute_target target) {
  return {.workers = workers, .target = target, .name = "task_worker"};
}

pool_session::pool_session(const task_pool_options& options) : options_(options) {
  if (options.workers == 0) throw std::invalid_argument("independent_tasks: a pool of 0 workers");
}

void pool_session::start_pool() {
  pool_.emplace(options_);
  peers_.clear();
  for (std::size_t index = 0; index < pool_->size(); ++index)
    peers_.push_back(pool_->worker_pid(index));
}

// map() fills a fresh result with NaN before every batch: that is this variant's poisoning.
run_result pool_session::run(task_case& work) {
  if (!pool_) start_pool();
  auto batch = pool_->map(work.views());
  workers_used_ = batch.workers_used;
  work.deliver(batch.sums);
  return {.seconds = batch.seconds, .stages = batch.stages};
}

run_result pool_session::run_cold(task_case& work) {
  if (pool_) {
    pool_->shutdown();
    pool_.reset();
  }
  const auto start = wall_clock::now();
  start_pool();
  auto batch = pool_->map(work.views());
  const double seconds = seconds_since(start);
  if (cold_starts_++ > 0) cold_start_seconds_ += pool_->start_seconds();
  workers_used_ = batch.workers_used;
  work.deliver(batch.sums);
  return {.seconds = seconds, .stages = batch.stages};
}

std::vector<named_figure> pool_session::figures() const {
  std::vector<named_figure> figures{{"workers", static_cast<double>(options_.workers)},
                                    {"workers_used", static_cast<double>(workers_used_)}};
  if (cold_starts_ > 0) {
    const int timed = std::max(1, cold_starts_ - 1);
    figures.push_back({"start_seconds", cold_start_seconds_ / timed});
  }
  cold_starts_ = 0;
  cold_start_seconds_ = 0;
  return figures;
}

void pool_session::shutdown() {
  if (pool_) pool_->shutdown();
}

floor_terms process_floor(const task_point& at, std::size_t workers, compute_target target,
                          const measured_run& run) {
  floor_terms floor;
  floor.add_bytes(ceiling::pipe, dataset_bytes(at));
  workers = std::max<std::size_t>(1, workers);
  if (target != compute_target::device) {
    // Every worker gets a first task while there are tasks, so the batch used this many.
    const auto used = static_cast<double>(std::min(workers, at.datasets));
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    floor.add_seconds(
        "kernel", run.stages_per_run.kernel * used / static_cast<double>(std::min(workers, cores)));
    return floor;
  }
  floor.add_bytes(ceiling::h2d_pageable, dataset_bytes(at));
  const std::size_t rounds = (at.datasets + workers - 1) / workers;
  floor.add_events(ceiling::launch_sync, static_cast<double>(rounds));
  if (run.cold) floor.add_events(ceiling::process_start, 1);
  return floor;
}

}  // namespace handoff::patterns::independent_tasks

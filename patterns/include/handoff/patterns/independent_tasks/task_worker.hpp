#pragma once
// The worker program of the seed and few_workers variants: multiprocessing.Pool's worker running
// gpu_task. It creates its CUDA context (device target), reports ready, then takes one task at a
// time from its channel until the coordinator closes it. Executables that start task_pool register
// the role with HANDOFF_WORKER_ROLE(task_worker_role, run_task_worker).

#include <chrono>
#include <span>
#include <string>
#include <vector>

#include "handoff/patterns/compute_target.hpp"

namespace handoff::patterns::independent_tasks {

inline constexpr const char* task_worker_role = "independent_tasks_worker";

// task_delay makes every task wait that long before computing: the conformance tests use it to
// kill a worker while a batch is surely in flight. Benchmarks leave it at 0.
std::vector<std::string> task_worker_arguments(compute_target target,
                                               std::chrono::milliseconds task_delay);

int run_task_worker(std::span<const std::string> arguments);

}  // namespace handoff::patterns::independent_tasks

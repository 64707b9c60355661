// few_workers: a pool of one worker per core, at most one per dataset.

#include "pool_session.hpp"
#include "variant_rows.hpp"

namespace handoff::patterns::independent_tasks {

task_session set_up_few_workers(const task_point& at, compute_target target) {
  return std::make_unique<pool_session>(pool_options(workers_for_cores(at.datasets), target));
}

task_floor few_workers_floor(const task_point& at, compute_target target, const measured_run& run) {
  return process_floor(at, workers_for_cores(at.datasets), target, run);
}

}  // namespace handoff::patterns::independent_tasks

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

constinit const task_row few_workers_variant{
    .name = "few_workers",
    .description = "a pool of processes sized to the cores, each with its own CUDA context",
    .targets = pooled,
    .clock = clock_kind::self,
    .cold = cold_kind::reopen,
    .setup = set_up_few_workers,
    .floor = few_workers_floor};

}  // namespace handoff::patterns::independent_tasks

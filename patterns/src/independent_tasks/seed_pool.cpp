// seed: a pool of one worker per dataset (100 for the seed's size), each with its own CUDA
// context, every dataset handed to its own process, as the recipe's Pool(len(datasets)).map does.

#include "pool_session.hpp"
#include "variant_rows.hpp"

namespace handoff::patterns::independent_tasks {
namespace {

std::size_t seed_workers(const task_point& at) {
  return std::max<std::size_t>(1, at.datasets);
}

}  // namespace

task_session set_up_seed(const task_point& at, compute_target target) {
  return std::make_unique<pool_session>(pool_options(seed_workers(at), target));
}

task_floor seed_floor(const task_point& at, compute_target target, const measured_run& run) {
  return process_floor(at, seed_workers(at), target, run);
}

constinit const task_row seed_variant{
    .name = "seed",
    .description = "a pool of one process per dataset, each with its own CUDA context",
    .recipe = true,
    .targets = pooled,
    .clock = clock_kind::self,
    .cold = cold_kind::reopen,
    .setup = set_up_seed,
    .floor = seed_floor};

}  // namespace handoff::patterns::independent_tasks

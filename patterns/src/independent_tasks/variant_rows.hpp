#pragma once
// Each variant's set-up and floor, defined in the variant's own file, for the table (variants.cpp).

#include <memory>

#include "handoff/patterns/independent_tasks/variants.hpp"

namespace handoff::patterns::independent_tasks {

using task_session = std::unique_ptr<session<task_case>>;
using task_floor = floor_terms;

task_session set_up_seed(const task_point& at, compute_target target);
task_floor seed_floor(const task_point& at, compute_target target, const measured_run& run);

task_session set_up_few_workers(const task_point& at, compute_target target);
task_floor few_workers_floor(const task_point& at, compute_target target, const measured_run& run);

task_session set_up_batched(const task_point& at, compute_target target);
task_floor batched_floor(const task_point& at, compute_target target, const measured_run& run);

task_session set_up_graph(const task_point& at, compute_target target);
task_floor graph_floor(const task_point& at, compute_target target, const measured_run& run);

task_session set_up_streams(const task_point& at, compute_target target);
task_floor streams_floor(const task_point& at, compute_target target, const measured_run& run);

task_session set_up_cpu_serial(const task_point& at, compute_target target);
task_session set_up_cpu_threads(const task_point& at, compute_target target);

}  // namespace handoff::patterns::independent_tasks

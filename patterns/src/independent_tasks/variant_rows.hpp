#pragma once
// What the table is made of: each variant's row, defined in the variant's own file and named in
// variants.def, and the floors and target sets the rows share.

#include <memory>

#include "handoff/patterns/independent_tasks/variants.hpp"

namespace handoff::patterns::independent_tasks {

inline constexpr runs_on pooled{.device = true, .host_stand_in = true};
inline constexpr runs_on device_only{.device = true};
inline constexpr runs_on cpu_only{.cpu = true};

#define HANDOFF_VARIANT(name) extern const task_row name##_variant;
#include "variants.def"
#undef HANDOFF_VARIANT

using task_session = std::unique_ptr<session<task_case>>;
using task_floor = floor_terms;

task_floor seed_floor(const task_point& at, compute_target target, const measured_run& run);
task_floor few_workers_floor(const task_point& at, compute_target target, const measured_run& run);
task_floor batched_floor(const task_point& at, compute_target target, const measured_run& run);
task_floor graph_floor(const task_point& at, compute_target target, const measured_run& run);
task_floor streams_floor(const task_point& at, compute_target target, const measured_run& run);

}  // namespace handoff::patterns::independent_tasks

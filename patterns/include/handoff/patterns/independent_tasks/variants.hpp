#pragma once
// independent_tasks (seed 001 example 2): 100 independent datasets of 10k floats, each reduced to
// its sum of squares. The table, one row per variant:
//   seed         a pool of one process per dataset, each with its own CUDA context
//                (seed_pool.cpp);
//   few_workers  a pool sized to the cores (few_workers_pool.cpp);
//   batched      one CUB segmented reduction (batched_reduction.cpp);
//   graph        the per-dataset reductions captured into one CUDA graph (graph_reductions.cpp);
//   streams      one reduction per dataset over k streams in one process
//                (streamed_reductions.cpp);
//   cpu_serial, cpu_threads  the CPU references (cpu_variants.cpp).
// The process variants also run with a host stand-in for the device, so CI exercises their
// orchestration; they have a cold figure (the pool started from nothing, plus one batch). The
// in-process device variants run with their datasets resident on the device or copied in and out
// (task_point::where).

#include "handoff/patterns/independent_tasks/task_case.hpp"
#include "handoff/patterns/variant.hpp"

namespace handoff::patterns::independent_tasks {

using task_row = variant_row<task_point, task_case>;

variant_table<task_point, task_case> independent_tasks_variants();

}  // namespace handoff::patterns::independent_tasks

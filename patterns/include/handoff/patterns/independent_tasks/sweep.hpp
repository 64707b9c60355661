#pragma once
// independent_tasks (seed 001 example 2): 100 independent datasets of 10k floats, each reduced to
// its sum of squares. The seed hands each dataset to its own process with its own CUDA context;
// the article calls that inefficient, and these rows measure by how much: against a pool sized to
// the cores, k streams in one process, one segmented reduction, and one CUDA graph.
//
// Families: "independent_tasks/cpu" (no GPU: the CPU references, and the process variants with the
// host stand-in) and "independent_tasks/gpu" (the process variants on the device, and the
// in-process device variants). Names:
//   independent_tasks/<cpu reference>/datasets:D/elements:E
//   independent_tasks/<process variant>/compute:<device|host>/datasets:D/elements:E/start:<s>
//   independent_tasks/<device variant>/data:<resident|host>/datasets:D/elements:E

#include "handoff/patterns/independent_tasks/variants.hpp"
#include "handoff/patterns/pattern_benchmarks.hpp"

namespace handoff::patterns::independent_tasks {

const pattern_benchmarks<task_point, task_case>& independent_tasks_benchmarks();

}  // namespace handoff::patterns::independent_tasks

#pragma once
// Seed 001 example 2's gpu_task, as the recipe writes it:
//   data_gpu = cp.asarray(data); result = cp.sum(data_gpu**2); return cp.asnumpy(result)
// that is, a fresh device allocation, a synchronous copy from pageable memory, the reduction (CUB,
// with its temporary storage allocated for this call too), and a synchronous copy of the scalar
// back, every allocation freed again. The seed and few_workers variants run it in their workers.
//
// Stages: h2d (the allocation included, since the recipe pays it to get its data on the device),
// kernel (the temporary storage, the reduction and its synchronisation), d2h (the scalar and the
// frees). On the host stand-in the sum runs on the calling thread and counts as the kernel stage.

#include <span>

#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/stage_times.hpp"

namespace handoff::patterns::independent_tasks {

float seed_gpu_task(compute_target target, std::span<const float> dataset, stage_times& stages);

// What a worker does once, before its first task: on the device, create its CUDA context (the cost
// cold figures carry); on the host stand-in, nothing.
void prepare_compute_target(compute_target target);

}  // namespace handoff::patterns::independent_tasks

#pragma once
// The worker of the seed and cpu_pool variants: seed 000's process_chunk in a spawned process.
// Started by map_pool; executables that run it register the role with
//   HANDOFF_WORKER_ROLE(pool_prep::map_worker_role, pool_prep::run_map_worker);
// Arguments: the compute target (compute_target_name) and the patience in milliseconds. On the
// device it creates its CUDA context before it reports ready, as `import pycuda.autoinit` does in
// every spawned worker, so the context is part of the pool's start (cold), not of a batch.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/stage_times.hpp"
#include "handoff/reference/pool_prep_inputs.hpp"

namespace handoff::patterns::pool_prep {

inline constexpr std::string_view map_worker_role = "pool_prep_map";

int run_map_worker(std::span<const std::string> arguments);

// process_chunk as the recipe writes it: generate a and b afresh, c = a + b through
// seed_vector_add (fresh device allocations, pageable copies), and return c by value. Stages: the
// generation as prep, then seed_vector_add's h2d, kernel and d2h. In a process forked from one
// that had initialised CUDA it throws handoff::cuda_used_after_fork before touching the device.
// On the host (cpu_pool) the add runs on the calling thread alone and counts as the kernel.
std::vector<float> process_chunk(compute_target target, const reference::vector_add_seeds& seeds,
                                 reference::chunk_extent extent, stage_times& stages);

}  // namespace handoff::patterns::pool_prep

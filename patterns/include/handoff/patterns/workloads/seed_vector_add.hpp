#pragma once
// Seed 000's process_chunk and gpu_worker body, as the recipe writes it: fresh device allocations
// for a, b and c, synchronous pageable copies in, the kernel, a synchronous pageable copy out, and
// the allocations freed again (PyCUDA frees them when they go out of scope). pool_prep's and
// queued_worker's seed variants both run it in their workers.
//
// Stages: h2d (the allocations included, since the recipe pays them to get its data on the
// device), kernel, d2h (the frees included). On the host stand-in the add runs on the calling
// thread and counts as the kernel stage.

#include <span>

#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/stage_times.hpp"

namespace handoff::patterns {

// a, b and out must have the same length (else std::invalid_argument); 0 is allowed.
void seed_vector_add(compute_target target, std::span<const float> a, std::span<const float> b,
                     std::span<float> out, stage_times& stages);

}  // namespace handoff::patterns

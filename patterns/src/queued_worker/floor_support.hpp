#pragma once
// What every queued_worker floor shares: the ceilings' names, the bytes of one vector of the whole
// batch, and the terms that do not depend on the variant (the host stand-in's add, the cold start).

#include "handoff/patterns/floor_terms.hpp"
#include "handoff/patterns/queued_worker/variants.hpp"

namespace handoff::patterns::queued_worker {

// The ceilings' names, as the ceiling benchmarks spell them (bench/ceilings/ceiling_names.hpp,
// which patterns/ cannot include).
namespace ceiling {
inline constexpr const char* h2d_pinned = "pcie_h2d_pinned";
inline constexpr const char* d2h_pinned = "pcie_d2h_pinned";
inline constexpr const char* h2d_pageable = "pcie_h2d_pageable";
inline constexpr const char* d2h_pageable = "pcie_d2h_pageable";
inline constexpr const char* bidirectional_pinned = "pcie_bidirectional_pinned";
inline constexpr const char* device_copy = "hbm_device_copy";
inline constexpr const char* launch_async = "kernel_launch_async";
inline constexpr const char* launch_sync = "kernel_launch_sync";
inline constexpr const char* process_start = "process_start_with_context";
inline constexpr const char* pipe = "pipe_between_processes";
inline constexpr const char* shm_memcpy = "shm_memcpy_one_thread";
}  // namespace ceiling

// One vector of every item in the batch; a and b are two of them, c one.
inline double vector_bytes(const point& at) {
  return sizeof(float) * static_cast<double>(at.elements) * static_cast<double>(at.items);
}

// The terms every variant's floor ends with. No ceiling prices the CPU's add: on the host stand-in
// its time in this run is the floor's share for it. A host stand-in's worker creates no context,
// so the context ceiling would overstate its cold floor.
inline floor_terms& add_shared_terms(floor_terms& floor, compute_target target,
                                     const measured_run& run) {
  const bool on_device = target == compute_target::device;
  if (!on_device) floor.add_seconds("kernel", run.stages_per_run.kernel);
  if (run.cold && on_device) floor.add_events(ceiling::process_start, 1);
  return floor;
}

}  // namespace handoff::patterns::queued_worker

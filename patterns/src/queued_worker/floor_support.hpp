#pragma once
// What every queued_worker floor shares: the bytes of one vector of the whole batch, and the terms
// that do not depend on the variant (the host stand-in's add, the cold start).

#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/patterns/floor_terms.hpp"
#include "handoff/patterns/queued_worker/variants.hpp"

namespace handoff::patterns::queued_worker {

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

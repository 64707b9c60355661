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

// The bytes both slot variants move, which overlap (the producer fills slots ahead of the worker),
// so their floor is the slowest of them, not the sum: the producer's copies through the slots
// and, on the device, the worker's uploads of a and b and download of c from page-locked slots.
// Each variant adds how its worker launches. The copies are one filler thread's, priced at the
// one-thread copy ceiling, which measures the producer's own streaming copy beside memcpy and
// keeps the faster: a producer that beat memcpy must not beat its floor.
inline floor_terms slot_ring_floor(const point& at, compute_target target) {
  floor_terms floor;
  floor.overlapped = true;
  floor.add_bytes(ceiling::shm_memcpy, 2 * vector_bytes(at));
  if (target == compute_target::device) {
    floor.add_bytes(ceiling::h2d_pinned, 2 * vector_bytes(at))
        .add_bytes(ceiling::d2h_pinned, vector_bytes(at));
  }
  return floor;
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

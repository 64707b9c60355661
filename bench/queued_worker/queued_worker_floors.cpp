#include "queued_worker_floors.hpp"

#include "handoff/patterns/ceiling_names.hpp"
#include "../harness/traffic.hpp"

namespace handoff::bench {

using patterns::compute_target;
using patterns::queued_worker::variant;

void add_queued_worker_floor(benchmark::State& state, variant kind, compute_target target,
                             const queued_worker_shape& shape, bool cold,
                             double kernel_seconds_per_batch) {
  const bool on_device = target == compute_target::device;
  const double items = static_cast<double>(shape.items);
  // One vector of every item in the batch; a and b are two of them, c one.
  const double vector_bytes = sizeof(float) * static_cast<double>(shape.elements) * items;
  switch (kind) {
    case variant::seed:
      // Serial: a and b cross the data pipe, up to the device through pageable memory, c comes
      // back down and through the results pipe; one synchronous launch per item. (The recipe's
      // per-item allocations are not priced: no ceiling bounds them, and they are its cost.)
      add_floor_bytes(state, ceiling::pipe, 3 * vector_bytes);
      if (on_device) {
        add_floor_bytes(state, ceiling::h2d_pageable, 2 * vector_bytes);
        add_floor_bytes(state, ceiling::d2h_pageable, vector_bytes);
        add_floor_events(state, ceiling::launch_sync, items);
      }
      break;
    case variant::slots:
      // The worker runs each item's upload, add and download one after another, but the producer
      // copies item k+1 into its slot while the worker handles item k, so the batch is bounded by
      // the longer of the two chains. The harness takes a floor as a sum or as its slowest stage;
      // the slowest stage is the one that stays a true lower bound (a sum measured 113% on host
      // rows whose copies and adds overlap).
      set_floor_overlapped(state);
      add_floor_bytes(state, ceiling::shm_memcpy, 2 * vector_bytes);
      if (on_device) {
        add_floor_bytes(state, ceiling::h2d_pinned, 2 * vector_bytes);
        add_floor_bytes(state, ceiling::d2h_pinned, vector_bytes);
        add_floor_events(state, ceiling::launch_sync, items);
      }
      break;
    case variant::streamed:
      // Everything overlaps: the producer filling slots (one thread), uploads, kernels and
      // downloads. The slowest of them bounds the batch.
      set_floor_overlapped(state);
      add_floor_bytes(state, ceiling::shm_memcpy, 2 * vector_bytes);
      if (on_device) {
        add_floor_bytes(state, ceiling::h2d_pinned, 2 * vector_bytes);
        add_floor_bytes(state, ceiling::d2h_pinned, vector_bytes);
        add_floor_bytes(state, ceiling::bidirectional_pinned, 3 * vector_bytes);
        add_floor_bytes(state, ceiling::device_copy, 3 * vector_bytes);  // read a, b; write c
        add_floor_events(state, ceiling::launch_async, items);
      }
      break;
  }
  if (!on_device) {
    // No ceiling prices the CPU's add: its time in this run is the floor's share for it.
    add_floor_seconds(state, "kernel", kernel_seconds_per_batch);
  }
  // A host stand-in's worker creates no context, so the context ceiling would overstate its floor.
  if (cold && on_device) add_floor_events(state, ceiling::process_start, 1);
}

}  // namespace handoff::bench

// slots: the producer copies each item into a ring of shared-memory slots that the worker has
// page-locked, and only slot numbers cross between the processes; c comes back through a second
// ring. Device buffers are allocated once, and the worker keeps one item in flight.

#include "declared_variants.hpp"
#include "floor_support.hpp"
#include "session_state.hpp"
#include "worker_loop.hpp"

namespace handoff::patterns::queued_worker {
namespace {

// The worker runs each item's upload, add and download one after another, but the producer
// copies item k+1 into its slot while the worker handles item k, so the batch is bounded by the
// longer of the two chains. The harness takes a floor as a sum or as its slowest stage; the
// slowest stage is the one that stays a true lower bound (a sum came out above the measured time
// on host rows whose copies and adds overlap).
floor_terms slots_floor(const point& at, compute_target target, const measured_run& run) {
  auto floor = slot_ring_floor(at, target);
  if (target == compute_target::device)
    floor.add_events(ceiling::launch_sync, static_cast<double>(at.items));
  return add_shared_terms(floor, target, run);
}

}  // namespace

constinit const row slots_variant = worker_row<slots_variant>(
    "slots", "pinned shared-memory slots; only slot ids travel", slots_floor,
    {.least_slots = 1,
     .pipeline_depth = one_item_in_flight,
     .create_channels = create_slot_rings,
     .run_producer = run_slots_batch,
     .run_worker = run_slot_worker});

}  // namespace handoff::patterns::queued_worker

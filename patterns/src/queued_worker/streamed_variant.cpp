// streamed: slots, with the worker overlapping item k+1's upload with item k's kernel and item
// k-1's download (one stream per lane, events to order), and a producer that fills and drains the
// rings from two threads.

#include <algorithm>

#include "declared_variants.hpp"
#include "floor_support.hpp"
#include "session_state.hpp"
#include "worker_loop.hpp"

namespace handoff::patterns::queued_worker {
namespace {

// The lanes the worker keeps in flight: item k+1 uploading, k computing, k-1 downloading.
constexpr std::size_t lanes = 3;

// The worker holds one input and one output slot per lane, so each ring needs one more slot than
// the lanes in flight for the producer to fill ahead.
std::size_t lanes_for(std::size_t slot_count) {
  return std::max<std::size_t>(1, std::min(lanes, slot_count - 1));
}

// Everything overlaps: the producer filling slots (one thread), uploads, kernels and downloads.
// The slowest of them bounds the batch.
floor_terms streamed_floor(const point& at, compute_target target, const measured_run& run) {
  auto floor = slot_ring_floor(at, target);
  if (target == compute_target::device) {
    floor.add_bytes(ceiling::bidirectional_pinned, 3 * vector_bytes(at))
        .add_bytes(ceiling::device_copy, 3 * vector_bytes(at))  // read a, b; write c
        .add_events(ceiling::launch_async, static_cast<double>(at.items));
  }
  return add_shared_terms(floor, target, run);
}

}  // namespace

constinit const row streamed_variant = worker_row<streamed_variant>(
    "streamed", "item k+1's copies overlap item k's kernel", streamed_floor,
    {.least_slots = 2,
     .pipeline_depth = lanes_for,
     .create_channels = create_slot_rings,
     .run_producer = run_streamed_batch,
     .run_worker = run_slot_worker});

}  // namespace handoff::patterns::queued_worker

// seed, the recipe: the payload travels by value through a joinable queue (a pipe), and the worker
// allocates device memory and copies pageable memory for every item. Both of the recipe's
// deadlocks are fixed (recipe_fixes); a test turns a fix off to show its deadlock.

#include "declared_variants.hpp"
#include "floor_support.hpp"
#include "session_state.hpp"
#include "worker_loop.hpp"

namespace handoff::patterns::queued_worker {
namespace {

// Unbounded, like multiprocessing.JoinableQueue() and Queue() in the recipe.
std::vector<int> create_queues(session_state& state) {
  const auto& setup = state.setup;
  const std::uint64_t floats = setup.max_item_elements;
  const std::uint64_t header = sizeof(protocol::message_header);
  state.data_queue = transport::process_queue::create({.max_message_bytes = header + 2 * floats * 4,
                                                       .joinable = true,
                                                       .purpose = setup.purpose + "-data"});
  state.results_queue = transport::process_queue::create(
      {.max_message_bytes = header + floats * 4, .purpose = setup.purpose + "-results"});
  auto descriptors = state.data_queue->descriptors();
  const auto results = state.results_queue->descriptors();
  descriptors.insert(descriptors.end(), results.begin(), results.end());
  return descriptors;
}

// Serial: a and b cross the data pipe, up to the device through pageable memory, c comes back
// down and through the results pipe; one synchronous launch per item. (The recipe's per-item
// allocations are not priced: no ceiling bounds them, and they are its cost.)
floor_terms seed_floor(const point& at, compute_target target, const measured_run& run) {
  floor_terms floor;
  floor.add_bytes(ceiling::pipe, 3 * vector_bytes(at));
  if (target == compute_target::device) {
    floor.add_bytes(ceiling::h2d_pageable, 2 * vector_bytes(at))
        .add_bytes(ceiling::d2h_pageable, vector_bytes(at))
        .add_events(ceiling::launch_sync, static_cast<double>(at.items));
  }
  return add_shared_terms(floor, target, run);
}

}  // namespace

constinit const row seed_variant = worker_row<seed_variant>(
    "seed", "the payload by value through a joinable queue, both deadlocks fixed", seed_floor,
    {.least_slots = 0,
     .recipe_fixes_optional = true,
     .pipeline_depth = one_item_in_flight,
     .create_channels = create_queues,
     .run_producer = run_seed_batch,
     .run_worker = run_seed_worker},
    /*recipe=*/true);

}  // namespace handoff::patterns::queued_worker

#pragma once
// What a worker_session holds: its setup, the worker, and the channels of its variant (the seed's
// two queues, or the slot variants' two rings). The producer side of each variant works on it.

#include <chrono>
#include <optional>
#include <span>

#include "handoff/patterns/queued_worker/queued_worker.hpp"
#include "handoff/transport/channels/process_queue.hpp"
#include "handoff/transport/channels/shm_ring.hpp"
#include "handoff/wall_clock.hpp"
#include "protocol.hpp"
#include "worker_process.hpp"

namespace handoff::patterns::queued_worker {

struct session_state {
  worker_setup setup;
  // seed: data_queue (joinable) and results_queue, as the recipe names them.
  std::optional<transport::process_queue> data_queue;
  std::optional<transport::process_queue> results_queue;
  // slots and streamed: a b in, c out.
  std::optional<transport::shm_ring> input_ring;
  std::optional<transport::shm_ring> output_ring;
  std::optional<worker_process> worker;
  double startup_seconds = 0;
  bool finished = false;
  bool broken = false;

  transport::deadline_clock::time_point step_deadline() const {
    return transport::deadline_clock::now() + setup.patience;
  }
  // The producer's check while it waits: a worker that died is worker_died at once.
  transport::peer_watch worker_watch() {
    return [this] { worker->check_alive(); };
  }
  // The worker's report after a batch's sentinel; a failure it reports is worker_failed, and an
  // item count other than the batch's is protocol_violation.
  protocol::worker_report receive_report(std::size_t expected_items);
};

// The producer side of each variant: one batch, ended by the sentinel `how`, with its stages.
// The variants' behaviours (their rows in declared_variants.hpp) name them.
batch_result run_seed_batch(session_state& state, std::span<const work_item> items,
                            std::span<const std::span<float>> outputs, protocol::ending how);
batch_result run_slots_batch(session_state& state, std::span<const work_item> items,
                             std::span<const std::span<float>> outputs, protocol::ending how);
batch_result run_streamed_batch(session_state& state, std::span<const work_item> items,
                                std::span<const std::span<float>> outputs, protocol::ending how);

// The slot variants' two rings: a and b in, c out.
std::vector<int> create_slot_rings(session_state& state);

}  // namespace handoff::patterns::queued_worker

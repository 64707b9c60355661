#pragma once
// Pieces shared by the worker's variants: the wait for the next batch on the control channel, the
// report after it, and the fault injection of the conformance tests.

#include <optional>

#include "handoff/transport/channels/connection.hpp"
#include "handoff/transport/channels/peer_watch.hpp"
#include "protocol.hpp"

namespace handoff::patterns::queued_worker {

// The next batch's ending, or nothing once the coordinator closed the channel (or went away).
std::optional<protocol::ending> wait_for_batch(transport::connection& control);

void send_report(transport::connection& control, const protocol::worker_report& report,
                 std::chrono::milliseconds patience);

// Throws channel_closed once the coordinator is gone (this process was re-parented).
transport::peer_watch coordinator_watch();

// After pause_after_items items of a batch, the worker stops working until it is killed (it exits
// on its own after patience, or when the coordinator goes away).
void pause_if_asked(const protocol::worker_arguments& arguments, std::size_t items_done);

// Creates this process's CUDA context on the current device, so that ready means ready.
void create_device_context();

// The seed's and the slot variants' worker loops (their behaviours name them); each returns once a
// stop sentinel was handled, or the coordinator closed the control channel between batches.
void run_seed_worker(const protocol::worker_arguments& arguments, transport::connection& control);
void run_slot_worker(const protocol::worker_arguments& arguments, transport::connection& control);

}  // namespace handoff::patterns::queued_worker

#pragma once
// tensor_transfer (seed 003) as a table: one row per variant, each defined whole (row, sender and
// receiver sides) in its own file. The benchmarks, the floors, the conformance tests and process B
// (which opens the receiving side by name) all go through it.

#include <span>
#include <string_view>

#include "handoff/patterns/tensor_transfer/transfer_variant.hpp"

namespace handoff::patterns {

// Defined in each variant's file.
extern const transfer_variant queue_variant;       // framed through a multiprocessing-style queue
extern const transfer_variant pipe_variant;        // framed through a duplex pipe
extern const transfer_variant shm_variant;         // framed through a shared-memory ring
extern const transfer_variant shm_pinned_variant;  // pinned shared memory, pipelined in chunks
extern const transfer_variant cuda_ipc_variant;    // a CUDA IPC handle plus an event: zero copy
extern const transfer_variant vmm_fd_variant;      // a cuMem descriptor over SCM_RIGHTS

std::span<const transfer_variant* const> transfer_variants();
variant_table<transfer_point, transfer_case> tensor_transfer_variants();

// std::invalid_argument when no variant has this name.
const transfer_variant& find_transfer_variant(std::string_view name);

}  // namespace handoff::patterns

#pragma once
// What bounds a transfer, from the ceilings of the stages it passes through (ceiling_names.hpp).

#include <string_view>

#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/floor_terms.hpp"
#include "handoff/patterns/tensor_transfer/transfer_case.hpp"

namespace handoff::patterns {

// The article's three, as built here (framing.hpp): the channel carries the frame chunk by chunk
// while the sender copies the chunks ahead of it down into page-locked staging and the receiver
// copies the chunks behind it up, so for a device tensor the stages overlap and the slowest bounds
// the transfer: the channel, either copy at the pinned rate, or the bus carrying both at once.
// Within the channel the two sides overlap too, so the channel counts once; for a host tensor it is
// the whole floor. (The stages used to run one after another, at the pageable rates, and the floor
// was their sum; a pipelined transfer can beat that sum, so it is no floor for one.)
floor_terms host_path_floor(std::string_view channel, const transfer_point& at,
                            compute_target target);

// cuda_ipc and vmm_fd: the receiver reads the shared memory and writes its own copy, then
// synchronises once.
floor_terms shared_device_memory_floor(const transfer_point& at, compute_target,
                                       const measured_run&);

}  // namespace handoff::patterns

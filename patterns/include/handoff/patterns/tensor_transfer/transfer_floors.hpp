#pragma once
// What bounds a transfer, from the ceilings of the stages it passes through (ceiling_names.hpp).

#include <string_view>

#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/floor_terms.hpp"
#include "handoff/patterns/tensor_transfer/transfer_case.hpp"

namespace handoff::patterns {

// The article's three run their stages one after another: the sender brings a device tensor to
// the host (pageable), the channel carries it, the receiver takes it back up. Within the channel
// stage the two sides overlap, so the channel counts once.
floor_terms host_path_floor(std::string_view channel, const transfer_point& at,
                            compute_target target);

// cuda_ipc and vmm_fd: the receiver reads the shared memory and writes its own copy, then
// synchronises once.
floor_terms shared_device_memory_floor(const transfer_point& at, compute_target,
                                       const measured_run&);

}  // namespace handoff::patterns

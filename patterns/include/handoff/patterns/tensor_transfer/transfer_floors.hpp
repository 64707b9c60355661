#pragma once
// What bounds a transfer, from the ceilings of the stages it passes through. The names are the
// ceilings' own (ceilings/<name> in the benchmarks, floor_bytes.<name> here).

#include <string_view>

#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/floor_terms.hpp"
#include "handoff/patterns/tensor_transfer/transfer_case.hpp"

namespace handoff::patterns::transfer_ceiling {

inline constexpr std::string_view h2d_pinned = "pcie_h2d_pinned";
inline constexpr std::string_view d2h_pinned = "pcie_d2h_pinned";
inline constexpr std::string_view h2d_pageable = "pcie_h2d_pageable";
inline constexpr std::string_view d2h_pageable = "pcie_d2h_pageable";
inline constexpr std::string_view bidirectional_pinned = "pcie_bidirectional_pinned";
inline constexpr std::string_view device_copy = "hbm_device_copy";
inline constexpr std::string_view launch_sync = "kernel_launch_sync";
inline constexpr std::string_view pipe = "pipe_between_processes";
inline constexpr std::string_view shm_memcpy = "shm_memcpy_one_thread";

}  // namespace handoff::patterns::transfer_ceiling

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

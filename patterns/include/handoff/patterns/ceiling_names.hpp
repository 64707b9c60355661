#pragma once
// The names of the ceilings, as benchmarks name them (ceilings/<name>) and as other benchmarks name
// the ceiling that bounds them (floor_bytes.<name>, floor_events.<name>): the floor models in
// patterns/ and the ceiling benchmarks in bench/ share them.

#include <string>

namespace handoff::ceiling {

inline constexpr const char* h2d_pinned = "pcie_h2d_pinned";
inline constexpr const char* d2h_pinned = "pcie_d2h_pinned";
inline constexpr const char* h2d_pageable = "pcie_h2d_pageable";
inline constexpr const char* d2h_pageable = "pcie_d2h_pageable";
inline constexpr const char* bidirectional_pinned = "pcie_bidirectional_pinned";
inline constexpr const char* device_copy = "hbm_device_copy";
inline constexpr const char* launch_async = "kernel_launch_async";
inline constexpr const char* launch_sync = "kernel_launch_sync";
inline constexpr const char* process_start = "process_start_with_context";
inline constexpr const char* pipe = "pipe_between_processes";
inline constexpr const char* shm_memcpy = "shm_memcpy_one_thread";
inline constexpr const char* peer_access_off = "p2p_peer_access_off";
inline constexpr const char* peer_access_on = "p2p_peer_access_on";
inline constexpr const char* peer_bidirectional = "p2p_peer_bidirectional";

// Each GPU's upload rate from pinned host memory while gpus GPUs upload at once: what a from_host
// run on that many GPUs can reach, where the host's memory or its root complex, not one link,
// bounds them together.
inline std::string h2d_pinned_each_of(int gpus) {
  return "pcie_h2d_pinned_each_of_" + std::to_string(gpus) + "_gpus";
}

}  // namespace handoff::ceiling

#pragma once
// The in-process device variants' floor, priced by this run's ceilings. Resident: every input
// byte read once from device memory (hbm_device_copy counts read plus written bytes, and a
// reduction writes next to nothing), plus the launches: one for batched and graph, one per dataset
// for streams. Host form: also every input byte over PCIe from pinned memory (batched also copies
// its segment offsets), and the sums' copy back, which is latency, not bandwidth: one
// kernel_launch_sync. streams and graph spread the datasets over several streams, so one dataset's
// upload runs while the host still issues later launches: their stages overlap, and only the
// slowest of them is a lower bound. batched runs its upload, reduction and download one after
// another.
//
// The ceilings' names are the benchmarks' (bench/ceilings/ceiling_names.hpp), which patterns/ may
// not include: they are spelled here as the floor counters carry them.

#include <cstddef>

#include "handoff/patterns/floor_terms.hpp"
#include "handoff/patterns/independent_tasks/task_case.hpp"

namespace handoff::patterns::independent_tasks {

namespace ceiling {
inline constexpr const char* h2d_pinned = "pcie_h2d_pinned";
inline constexpr const char* h2d_pageable = "pcie_h2d_pageable";
inline constexpr const char* device_copy = "hbm_device_copy";
inline constexpr const char* launch_async = "kernel_launch_async";
inline constexpr const char* launch_sync = "kernel_launch_sync";
inline constexpr const char* process_start = "process_start_with_context";
inline constexpr const char* pipe = "pipe_between_processes";
}  // namespace ceiling

// The bytes of all the point's datasets.
inline double dataset_bytes(const task_point& at) {
  return static_cast<double>(at.datasets * at.elements * sizeof(float));
}

// launches: how many the run issues; extra_upload: bytes the host form copies in besides the data.
floor_terms device_variant_floor(const task_point& at, double launches, bool overlapped,
                                 double extra_upload = 0);

}  // namespace handoff::patterns::independent_tasks

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

#include <cstddef>

#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/patterns/floor_terms.hpp"
#include "handoff/patterns/independent_tasks/task_case.hpp"

namespace handoff::patterns::independent_tasks {

// The bytes of all the point's datasets.
inline double dataset_bytes(const task_point& at) {
  return static_cast<double>(at.datasets * at.elements * sizeof(float));
}

// launches: how many the run issues; extra_upload: bytes the host form copies in besides the data.
floor_terms device_variant_floor(const task_point& at, double launches, bool overlapped,
                                 double extra_upload = 0);

}  // namespace handoff::patterns::independent_tasks

// The floors of the multi_gpu rows, from the plan: what each device must move over which link.
// Devices work at the same time, so a per-device stage is priced at the busiest device's share;
// the article's host_gather works one device after the other, so its stages are priced at the
// whole array; uploads that run at once are priced at the rate each GPU reached while that many
// uploaded together (ceiling::h2d_pinned_each_of). The p2p ceilings are measured between GPUs 0 and
// 1 only; the floors assume every pair, and GPU 0's ingress from all peers at once, reach that
// figure.

#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/patterns/multi_gpu/figures.hpp"
#include "rows.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

constexpr double float_bytes = sizeof(float);

double array_bytes(const partition_plan& plan) {
  return float_bytes * static_cast<double>(plan.elements);
}

double busiest_share_bytes(const partition_plan& plan) {
  return float_bytes * static_cast<double>(plan.largest_device_share());
}

}  // namespace

floor_terms multi_gpu_floor(const partition_plan& plan, gather_kind gather, run_scope scope) {
  floor_terms floor;
  const bool one_after_another = gather == gather_kind::host_seed;
  const double moved = one_after_another ? array_bytes(plan) : busiest_share_bytes(plan);
  // The kernel reads and writes each element once; hbm_device_copy counts both.
  const double kernel_bytes = 2.0 * moved;
  if (scope == run_scope::from_host) {
    // Devices that upload at once share the host's side: each is priced at the rate one GPU of
    // that many reached while all uploaded together, not at one GPU's rate alone.
    const bool uploads_at_once = !one_after_another && plan.devices > 1;
    floor.add_bytes(one_after_another ? ceiling::h2d_pageable
                    : uploads_at_once ? ceiling::h2d_pinned_each_of(plan.devices)
                                      : ceiling::h2d_pinned,
                    moved);
  }
  double hbm_bytes = scope == run_scope::gather ? 0.0 : kernel_bytes;
  if (one_after_another) {
    floor.add_events(ceiling::launch_sync, scope == run_scope::gather ? 0 : plan.devices);
  }
  switch (gather) {
    case gather_kind::none:
      break;
    case gather_kind::host_seed:
      floor.add_bytes(ceiling::d2h_pageable, array_bytes(plan));
      floor.add_bytes(ceiling::shm_memcpy, array_bytes(plan));  // np.concatenate
      break;
    case gather_kind::host_pinned:
      floor.add_bytes(ceiling::d2h_pinned, moved);
      break;
    case gather_kind::peer:
    case gather_kind::nccl:
      if (plan.devices < 2) {
        hbm_bytes += 2.0 * array_bytes(plan);  // one device: the gather is a local copy
      } else {
        floor.add_bytes(ceiling::peer_access_on, gather_link_bytes(plan, gather));
      }
      break;
  }
  if (hbm_bytes > 0.0) floor.add_bytes(ceiling::device_copy, hbm_bytes);
  return floor;
}

}  // namespace handoff::patterns::multi_gpu

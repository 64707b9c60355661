#include "multi_gpu_floors.hpp"

#include "../ceilings/ceiling_names.hpp"
#include "../harness/traffic.hpp"

namespace handoff::bench {
namespace {

using patterns::multi_gpu::run_scope;

constexpr double float_bytes = sizeof(float);

double array_bytes(const patterns::multi_gpu::partition_plan& plan) {
  return float_bytes * static_cast<double>(plan.elements);
}

double busiest_share_bytes(const patterns::multi_gpu::partition_plan& plan) {
  return float_bytes * static_cast<double>(plan.largest_device_share());
}

}  // namespace

double gather_link_bytes(const patterns::multi_gpu::partition_plan& plan, gather_kind gather) {
  if (plan.devices < 2) return 0.0;
  switch (gather) {
    case gather_kind::peer:
      return float_bytes * static_cast<double>(plan.elements - plan.elements_on(0));
    case gather_kind::nccl:
      // Each device receives every part but its own; with even shares, (N-1)/N of the array,
      // which is what busbw counts.
      return array_bytes(plan) * (plan.devices - 1) / plan.devices;
    default:
      return 0.0;
  }
}

void add_multi_gpu_floor(benchmark::State& state, const patterns::multi_gpu::partition_plan& plan,
                         gather_kind gather, run_scope scope) {
  const bool one_after_another = gather == gather_kind::host_seed;
  const double moved = one_after_another ? array_bytes(plan) : busiest_share_bytes(plan);
  // The kernel reads and writes each element once; hbm_device_copy counts both.
  const double kernel_bytes = 2.0 * moved;
  if (scope == run_scope::from_host) {
    add_floor_bytes(state, one_after_another ? ceiling::h2d_pageable : ceiling::h2d_pinned, moved);
  }
  double hbm_bytes = scope == run_scope::gather ? 0.0 : kernel_bytes;
  if (one_after_another) {
    add_floor_events(state, ceiling::launch_sync, scope == run_scope::gather ? 0 : plan.devices);
  }
  switch (gather) {
    case gather_kind::none:
      break;
    case gather_kind::host_seed:
      add_floor_bytes(state, ceiling::d2h_pageable, array_bytes(plan));
      add_floor_bytes(state, ceiling::shm_memcpy, array_bytes(plan));  // np.concatenate
      break;
    case gather_kind::host_pinned:
      add_floor_bytes(state, ceiling::d2h_pinned, moved);
      break;
    case gather_kind::peer:
    case gather_kind::nccl:
      if (plan.devices < 2) {
        hbm_bytes += 2.0 * array_bytes(plan);  // one device: the gather is a local copy
      } else {
        add_floor_bytes(state, ceiling::peer_access_on, gather_link_bytes(plan, gather));
      }
      break;
  }
  if (hbm_bytes > 0.0) add_floor_bytes(state, ceiling::device_copy, hbm_bytes);
}

}  // namespace handoff::bench

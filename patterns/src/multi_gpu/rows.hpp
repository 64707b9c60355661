#pragma once
// The set-up and floor of each row of the multi_gpu table (variants.cpp). Each set-up is defined
// in its variant's file; the floors, one model over the gather kind, in floors.cpp.

#include <memory>
#include <string>

#include "handoff/patterns/multi_gpu/variants.hpp"

namespace handoff::patterns::multi_gpu {

using session_ptr = std::unique_ptr<session<multi_gpu_case>>;

session_ptr set_up_kernel_only(const multi_gpu_point& at, compute_target target);
session_ptr set_up_kernel_only_threads(const multi_gpu_point& at, compute_target target);
session_ptr set_up_kernel_only_host_join(const multi_gpu_point& at, compute_target target);
session_ptr set_up_host_gather(const multi_gpu_point& at, compute_target target);
session_ptr set_up_host_gather_pinned(const multi_gpu_point& at, compute_target target);
session_ptr set_up_p2p_gather(const multi_gpu_point& at, compute_target target);
session_ptr set_up_nccl_allgather(const multi_gpu_point& at, compute_target target);
session_ptr set_up_nccl_allgather_window(const multi_gpu_point& at, compute_target target);

// Why nccl_allgather cannot run (no NCCL in this build, or the library does not load); empty when
// it can.
std::string nccl_unavailable_reason();
// Why nccl_allgather_window cannot run (that, or an NCCL without symmetric windows); empty when it
// can.
std::string nccl_windows_unavailable();

floor_terms multi_gpu_floor(const partition_plan& plan, gather_kind gather, run_scope scope);

template <gather_kind gather>
floor_terms floor_of(const multi_gpu_point& at, compute_target, const measured_run&) {
  return multi_gpu_floor(plan_of(at.config), gather, at.scope);
}

}  // namespace handoff::patterns::multi_gpu

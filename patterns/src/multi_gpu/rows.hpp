#pragma once
// What the multi_gpu table is made of: each variant's row, defined in the variant's own file and
// named in variants.def; the floors, one model over the gather kind, in floors.cpp.

#include <memory>
#include <string>

#include "handoff/patterns/multi_gpu/variants.hpp"

namespace handoff::patterns::multi_gpu {

using session_ptr = std::unique_ptr<session<multi_gpu_case>>;

inline constexpr runs_on devices_only{.device = true};

#define HANDOFF_VARIANT(name) extern const multi_gpu_row name##_variant;
#include "variants.def"
#undef HANDOFF_VARIANT

// Why nccl_allgather cannot run (no NCCL in this build, or the library does not load); empty when
// it can.
std::string nccl_unavailable_reason();
// Why nccl_allgather_window cannot run (that, or an NCCL without symmetric windows); empty when it
// can.
std::string nccl_windows_unavailable();

// The points of the sweep each kind of row is measured at (its row's measured_at). A placement
// check workload (workload_registry.hpp) has the from-host rows only.
// kernel_only: the scaling curve, resident at every size and partitioner, and from the host at
// the headline size with the even partitioner.
bool on_the_scaling_curve(const multi_gpu_point& at);
// The other launch paths: resident and from the host, at the headline size, the even partitioner.
bool at_the_headline_launch(const multi_gpu_point& at);
// A gather: at the headline size, every scope with the even partitioner, resident with the others.
bool at_the_headline_gather(const multi_gpu_point& at);

floor_terms multi_gpu_floor(const partition_plan& plan, gather_kind gather, run_scope scope);

template <gather_kind gather>
floor_terms floor_of(const multi_gpu_point& at, compute_target, const measured_run&) {
  return multi_gpu_floor(plan_of(at.config), gather, at.scope);
}

}  // namespace handoff::patterns::multi_gpu

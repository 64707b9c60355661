#pragma once
// What the table is made of: each variant's row, defined in the variant's own file and named in
// variants.def, and the floors and target sets the rows share.

#include <memory>

#include "handoff/patterns/postproc_split/variants.hpp"

namespace handoff::patterns::postproc_split {

inline constexpr runs_on pooled{.device = true, .host_stand_in = true};
inline constexpr runs_on device_only{.device = true};
inline constexpr runs_on cpu_only{.cpu = true};

#define HANDOFF_VARIANT(name) extern const split_row name##_variant;
#include "variants.def"
#undef HANDOFF_VARIANT

using split_session = std::unique_ptr<session<split_case>>;

floor_terms seed_split_floor(const split_point& at, compute_target target, const measured_run&);

floor_terms shm_split_floor(const split_point& at, compute_target target, const measured_run&);

floor_terms overlapped_split_floor(const split_point& at, compute_target target,
                                   const measured_run&);

floor_terms gpu_reduce_floor(const split_point& at, compute_target target, const measured_run&);

}  // namespace handoff::patterns::postproc_split

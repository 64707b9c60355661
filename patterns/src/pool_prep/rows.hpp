#pragma once
// What pool_prep's table is made of: each variant's row (defined in the variant's own file, named
// in variants.def) and the floor models (floors.cpp) they share. Private to the pattern; its users
// go through the table.

#include <memory>

#include "handoff/patterns/pool_prep/variants.hpp"

namespace handoff::patterns::pool_prep {

using batch_session_ptr = std::unique_ptr<session<batch_case>>;

inline constexpr runs_on cpu_only{.cpu = true};
inline constexpr runs_on device_or_host{.device = true, .host_stand_in = true};

#define HANDOFF_VARIANT(name) extern const row name##_variant;
#include "variants.def"
#undef HANDOFF_VARIANT

floor_terms cpu_serial_floor(const point& at, compute_target target, const measured_run& run);
floor_terms cpu_pool_floor(const point& at, compute_target target, const measured_run& run);
floor_terms seed_floor(const point& at, compute_target target, const measured_run& run);
floor_terms streamed_floor(const point& at, compute_target target, const measured_run& run);

}  // namespace handoff::patterns::pool_prep

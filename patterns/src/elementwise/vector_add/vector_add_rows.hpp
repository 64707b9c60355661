#pragma once
// What the vector add's table is made of: each variant's row, defined in the variant's own file
// and named in variants.def, and what the rows share. Private to the pattern.

#include "handoff/patterns/elementwise/vector_add_table.hpp"

namespace handoff::patterns::elementwise {

using vector_add_row = variant_row<vector_add_point, vector_add_case>;

inline constexpr runs_on on_cpu{.cpu = true};
inline constexpr runs_on on_device{.device = true};

#define HANDOFF_VARIANT(name) extern const vector_add_row name##_variant;
#include "variants.def"
#undef HANDOFF_VARIANT

floor_terms vector_add_transfers_floor(const vector_add_point&, compute_target,
                                       const measured_run&);
floor_terms vector_add_transfers_pinned_floor(const vector_add_point&, compute_target,
                                              const measured_run&);
floor_terms vector_add_resident_floor(const vector_add_point&, compute_target, const measured_run&);

}  // namespace handoff::patterns::elementwise

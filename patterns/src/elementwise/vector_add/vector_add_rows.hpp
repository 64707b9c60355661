#pragma once
// What the vector add's table is made of: each variant's row, defined in the variant's own file
// and named in variants.def, and what the rows share. Private to the pattern.

#include <cstddef>
#include <span>

#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/patterns/elementwise/vector_add_table.hpp"

namespace handoff::patterns::elementwise {

using vector_add_row = variant_row<vector_add_point, vector_add_case>;

inline constexpr runs_on on_cpu{.cpu = true};
inline constexpr runs_on on_device{.device = true};

#define HANDOFF_VARIANT(name) extern const vector_add_row name##_variant;
#include "variants.def"
#undef HANDOFF_VARIANT

// out[i] = a[i] + b[i] for i in [begin, end): the CPU sessions' loop.
void add_range(const vector_add_inputs& inputs, std::span<float> out, std::size_t begin,
               std::size_t end);

// Both inputs up over the upload ceiling, a, b and the sum through device memory, the sum down
// over the download ceiling, and one launch.
floor_terms vector_add_transfers_floor(std::size_t count, const char* upload, const char* download);

}  // namespace handoff::patterns::elementwise

#pragma once
// What iterative's table is made of: each variant's row, defined in the variant's own file and
// named in variants.def, and what the rows share. Private to the pattern.

#include <cstddef>

#include "handoff/patterns/iterative/variants.hpp"

namespace handoff::patterns::iterative {

inline constexpr runs_on on_cpu{.cpu = true};
inline constexpr runs_on on_device{.device = true};

// Measured up to largest unknowns: a row too slow for the largest sizes stops below them.
template <std::size_t largest>
inline bool up_to(const jacobi_point& at) {
  return at.unknowns <= largest;
}

#define HANDOFF_VARIANT(name) extern const jacobi_row name##_variant;
#include "variants.def"
#undef HANDOFF_VARIANT

}  // namespace handoff::patterns::iterative

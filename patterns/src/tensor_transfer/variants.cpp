// The tensor_transfer table: the variants variants.def names, in its order.

#include "handoff/patterns/tensor_transfer/variants.hpp"

#include <stdexcept>
#include <string>

#include "declared_variants.hpp"

namespace handoff::patterns {

variant_table<transfer_point, transfer_case, transfer_channel> tensor_transfer_variants() {
  // The rows live in the variants' files; the benchmarks and tests want them side by side.
  static const transfer_row rows[] = {
#define HANDOFF_VARIANT(name) name##_variant,
#include "variants.def"
#undef HANDOFF_VARIANT
  };
  return rows;
}

const transfer_row& find_transfer_variant(std::string_view name) {
  for (const auto& row : tensor_transfer_variants())
    if (row.name == name) return row;
  throw std::invalid_argument("no tensor_transfer variant named '" + std::string(name) + "'");
}

}  // namespace handoff::patterns

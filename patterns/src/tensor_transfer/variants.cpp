// The tensor_transfer table: the variants variants.def names, in its order.

#include "handoff/patterns/tensor_transfer/variants.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "declared_variants.hpp"

namespace handoff::patterns {
namespace {

constexpr std::array all_variants{
#define HANDOFF_VARIANT(name) &name##_variant,
#include "variants.def"
#undef HANDOFF_VARIANT
};

}  // namespace

std::span<const transfer_variant* const> transfer_variants() {
  return all_variants;
}

variant_table<transfer_point, transfer_case> tensor_transfer_variants() {
  // The rows live in the variants' files; the benchmarks and tests want them side by side.
  static const auto rows = [] {
    std::array<transfer_row, all_variants.size()> copied;
    for (std::size_t index = 0; index < all_variants.size(); ++index)
      copied[index] = all_variants[index]->row;
    return copied;
  }();
  return rows;
}

const transfer_variant& find_transfer_variant(std::string_view name) {
  for (const auto* variant : all_variants)
    if (variant->row.name == name) return *variant;
  throw std::invalid_argument("no tensor_transfer variant named '" + std::string(name) + "'");
}

}  // namespace handoff::patterns

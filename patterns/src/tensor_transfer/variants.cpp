// The tensor_transfer table: one line per variant, in the order the benchmarks run them.

#include "handoff/patterns/tensor_transfer/variants.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace handoff::patterns {
namespace {

constexpr std::array<const transfer_variant*, 6> all_variants{
    &queue_variant,       // the article's three, through host memory
    &pipe_variant,        //
    &shm_variant,         //
    &shm_pinned_variant,  // device memory without the article's serialisation
    &cuda_ipc_variant,    //
    &vmm_fd_variant,      //
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

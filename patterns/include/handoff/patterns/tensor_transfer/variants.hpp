#pragma once
// tensor_transfer (seed 003) as a table: one row per variant, each defined whole (row, sender and
// receiver sides) in its own file. The benchmarks, the floors, the conformance tests and process B
// (which opens the receiving side by name) all go through it.

#include <span>
#include <string_view>

#include "handoff/patterns/tensor_transfer/transfer_variant.hpp"

namespace handoff::patterns {

std::span<const transfer_variant* const> transfer_variants();
variant_table<transfer_point, transfer_case> tensor_transfer_variants();

// std::invalid_argument when no variant has this name.
const transfer_variant& find_transfer_variant(std::string_view name);

}  // namespace handoff::patterns

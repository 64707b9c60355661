#pragma once
// tensor_transfer (seed 003) as a table: one row per variant, each defined whole (its row, with
// the sender and receiver sides of its channel) in its own file. The benchmarks, the floors, the
// conformance tests and process B (which opens the receiving side by name) all go through it.

#include <string_view>

#include "handoff/patterns/tensor_transfer/transfer_case.hpp"

namespace handoff::patterns {

variant_table<transfer_point, transfer_case, transfer_channel> tensor_transfer_variants();

// std::invalid_argument when no variant has this name.
const transfer_row& find_transfer_variant(std::string_view name);

}  // namespace handoff::patterns

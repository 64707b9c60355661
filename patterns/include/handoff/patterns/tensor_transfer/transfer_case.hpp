#pragma once
// The work of one tensor_transfer row: a flat float32 tensor of `bytes` that process A seeds and
// process B must hold bit for bit afterwards. The tensor lands in B, so this process holds only
// what must arrive (its size and seed); a variant's session asks B to check it.

#include <cstdint>
#include <memory>

#include "handoff/patterns/variant.hpp"

namespace handoff::patterns {

// The seed every session fills its source tensor with.
inline constexpr std::uint64_t transfer_seed = 0x7E45;

struct transfer_point {
  std::size_t bytes = 0;  // a whole number of floats
  bool operator==(const transfer_point&) const = default;
};

struct transfer_case {
  std::size_t bytes = 0;
  std::uint64_t seed = transfer_seed;  // the pattern B must hold; another seed's must fail

  // The destination lives in process B: sessions poison and verify it there.
  void poison() {}
};

std::unique_ptr<transfer_case> make_transfer_case(const transfer_point& at);

using transfer_row = variant_row<transfer_point, transfer_case>;

}  // namespace handoff::patterns

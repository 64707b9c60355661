#pragma once
// The work of one tensor_transfer row: a flat float32 tensor of `bytes` that process A seeds and
// process B must hold bit for bit afterwards. The tensor lands in B, so this process holds only
// what must arrive (its size and seed); a variant's session asks B to check it. A variant's row
// also holds the two sides of its channel.

#include <cstdint>
#include <memory>

#include "handoff/patterns/tensor_transfer/transfer_session.hpp"
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

// The two sides of a variant's channel. Process A makes the sender side for every session;
// process B, told the variant's name by the open_session command, opens the receiving side
// through the table (variants.hpp).
struct transfer_channel {
  // Untimed: for the zero-copy variants the source must live in memory they can share, so the
  // sender copies it there now.
  std::unique_ptr<sender_session> (*make_sender)(const tensor_memory& source) = nullptr;
  // Takes the descriptors that follow the open_session command.
  std::unique_ptr<receiver_session> (*open_receiver)(
      const command_record& command, transport::connection& control,
      transport::deadline_clock::time_point deadline) = nullptr;
};

using transfer_row = variant_row<transfer_point, transfer_case, transfer_channel>;

}  // namespace handoff::patterns

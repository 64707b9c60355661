#pragma once
// The pipe-sink worker. On stdin it receives messages, each an 8-byte length and that many bytes.
// For each it answers on stdout with the 8-byte length as soon as the bytes are in (the sender's
// clock stops there), then the message's 64-bit XXH3 hash, so the sender can check what arrived.
// It exits 0 when stdin closes between messages.

#include <cstdint>

namespace handoff::bench {

inline constexpr std::uint64_t pipe_sink_max_message_bytes = std::uint64_t{1} << 32;

int run_pipe_sink();

}  // namespace handoff::bench

#pragma once
// The pipe-sink worker. On stdin it receives messages, each an 8-byte length and that many bytes,
// read in chunks into one reused buffer (as a consumer that processes a stream would) and hashed
// as they arrive. After each message it answers on stdout with the 8-byte length, which stops the
// sender's clock, and the message's 64-bit XXH3 hash, so the sender can check every byte.
// It exits 0 when stdin closes between messages.

#include <cstddef>
#include <cstdint>

namespace handoff::bench {

inline constexpr std::uint64_t pipe_sink_max_message_bytes = std::uint64_t{1} << 40;
inline constexpr std::size_t pipe_sink_chunk_bytes = std::size_t{1} << 20;

int run_pipe_sink();

}  // namespace handoff::bench

#pragma once
// The pipe-sink worker. On stdin it receives messages, each an 8-byte length and that many bytes,
// read in chunks into a small ring of reused buffers (as a consumer that processes a stream would)
// and hashed as they arrive: inline, or for a large message on a thread of its own
// (transport::piece_hasher), as the tensor receivers whose floor this sets hash theirs. After each
// message it answers on stdout with the 8-byte length, which stops the sender's clock, and the
// message's 64-bit XXH3 hash, so the sender can check every byte. It exits 0 when stdin closes
// between messages; a length over the cap is 3, and a stream that ends inside a message (its length
// included) or any other channel failure is 4.

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace handoff::bench {

inline constexpr std::uint64_t pipe_sink_max_message_bytes = std::uint64_t{1} << 40;
inline constexpr std::size_t pipe_sink_chunk_bytes = std::size_t{1} << 20;
inline constexpr std::size_t pipe_sink_ring_chunks = 4;

// The worker role: serves stdin and stdout, waiting up to an hour for each message.
int run_pipe_sink();

// The sink's loop on any pair of descriptors, each message within patience; returns the exit code
// above (fuzz/pipe_sink_fuzzer.cpp drives it with a pipe).
int serve_pipe_sink(int input, int output, std::chrono::milliseconds patience);

}  // namespace handoff::bench

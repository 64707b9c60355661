#include "pipe_sink.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <span>
#include <vector>

#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/piece_hasher.hpp"
#include "handoff/transport/process_errors.hpp"
#include "handoff/transport/tensor_frame.hpp"

namespace handoff::bench {
namespace {

// The sender enforces its own deadlines; the sink only needs to notice a vanished sender, which
// shows up as end of file.
constexpr std::chrono::milliseconds sink_patience = std::chrono::hours(1);

template <class Value>
std::span<std::byte> bytes_of(Value& value) {
  return std::as_writable_bytes(std::span(&value, 1));
}

// Reads a message body of `length` bytes in chunks through the ring and returns its XXH3 hash.
// On a thread of its own the hash runs behind the reads, so a buffer is refilled only once the
// chunk it held has been hashed.
std::uint64_t receive_hashed(int input, std::uint64_t length, std::span<std::byte> ring,
                             transport::deadline_clock::time_point deadline) {
  const auto chunk_of = [&](std::uint64_t received) {
    const std::size_t index = (received / pipe_sink_chunk_bytes) % pipe_sink_ring_chunks;
    return ring.subspan(index * pipe_sink_chunk_bytes, pipe_sink_chunk_bytes)
        .first(static_cast<std::size_t>(
            std::min<std::uint64_t>(pipe_sink_chunk_bytes, length - received)));
  };
  if (!transport::piece_hasher::pays_off(length)) {
    transport::frame_checksum checksum;
    for (std::uint64_t received = 0; received < length;) {
      const auto piece = chunk_of(received);
      transport::read_exact(input, piece, deadline, "pipe sender");
      checksum.update(piece);
      received += piece.size();
    }
    return checksum.digest();
  }
  transport::piece_hasher hasher;
  for (std::uint64_t received = 0, chunk = 0; received < length; ++chunk) {
    if (chunk >= pipe_sink_ring_chunks) hasher.wait_hashed(chunk - pipe_sink_ring_chunks + 1);
    const auto piece = chunk_of(received);
    transport::read_exact(input, piece, deadline, "pipe sender");
    hasher.add(piece);
    received += piece.size();
  }
  return hasher.digest();
}

}  // namespace

int run_pipe_sink() {
  return serve_pipe_sink(STDIN_FILENO, STDOUT_FILENO, sink_patience);
}

int serve_pipe_sink(int input, int output, std::chrono::milliseconds patience) {
  using transport::read_exact;
  using transport::write_all;
  std::vector<std::byte> ring(pipe_sink_ring_chunks * pipe_sink_chunk_bytes);
  while (true) {
    std::uint64_t length = 0;
    const auto deadline = transport::deadline_clock::now() + patience;
    // End of file before a message's first byte is the sender's goodbye; anywhere after it, even
    // inside the length, the message is torn.
    const auto length_bytes = bytes_of(length);
    try {
      read_exact(input, length_bytes.first(1), deadline, "pipe sender");
    } catch (const transport::channel_closed&) {
      return 0;
    } catch (const transport::process_error& error) {
      std::fprintf(stderr, "pipe_sink: %s\n", error.what());
      return 4;
    }
    try {
      read_exact(input, length_bytes.subspan(1), deadline, "pipe sender");
      if (length > pipe_sink_max_message_bytes) {
        std::fprintf(stderr, "pipe_sink: message of %llu bytes exceeds the cap\n",
                     static_cast<unsigned long long>(length));
        return 3;
      }
      std::uint64_t reply[2] = {length, receive_hashed(input, length, ring, deadline)};
      write_all(output, std::as_bytes(std::span(reply)), deadline, "pipe sender");
    } catch (const transport::process_error& error) {
      std::fprintf(stderr, "pipe_sink: %s\n", error.what());
      return 4;
    }
  }
}

}  // namespace handoff::bench

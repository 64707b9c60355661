#include "pipe_sink.hpp"

#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <span>
#include <vector>

#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/process_errors.hpp"

namespace handoff::bench {
namespace {

// The sender enforces its own deadlines; the sink only needs to notice a vanished sender, which
// shows up as end of file.
constexpr std::chrono::milliseconds sink_patience = std::chrono::hours(1);

template <class Value>
std::span<std::byte> bytes_of(Value& value) {
  return std::as_writable_bytes(std::span(&value, 1));
}

}  // namespace

int run_pipe_sink() {
  return serve_pipe_sink(STDIN_FILENO, STDOUT_FILENO, sink_patience);
}

int serve_pipe_sink(int input, int output, std::chrono::milliseconds patience) {
  using transport::read_exact;
  using transport::write_all;
  std::vector<std::byte> chunk(pipe_sink_chunk_bytes);
  XXH3_state_t* const hasher = XXH3_createState();
  if (hasher == nullptr) return 5;
  struct release_state {
    XXH3_state_t* state;
    ~release_state() { XXH3_freeState(state); }
  } release{hasher};
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
      XXH3_64bits_reset(hasher);
      for (std::uint64_t received = 0; received < length;) {
        const auto piece = std::span(chunk).first(
            static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), length - received)));
        read_exact(input, piece, deadline, "pipe sender");
        XXH3_64bits_update(hasher, piece.data(), piece.size());
        received += piece.size();
      }
      std::uint64_t reply[2] = {length, XXH3_64bits_digest(hasher)};
      write_all(output, std::as_bytes(std::span(reply)), deadline, "pipe sender");
    } catch (const transport::process_error& error) {
      std::fprintf(stderr, "pipe_sink: %s\n", error.what());
      return 4;
    }
  }
}

}  // namespace handoff::bench

#include "pipe_sink.hpp"

#include <unistd.h>
#include <xxhash.h>

#include <chrono>
#include <cstdio>
#include <span>
#include <vector>

#include "handoff/patterns/fd_io.hpp"
#include "handoff/patterns/process_errors.hpp"

namespace handoff::bench {
namespace {

// The sender enforces its own deadlines; the sink only needs to notice a vanished sender, which
// shows up as end of file.
constexpr auto sink_patience = std::chrono::hours(1);

template <class Value>
std::span<std::byte> bytes_of(Value& value) {
  return std::as_writable_bytes(std::span(&value, 1));
}

}  // namespace

int run_pipe_sink() {
  using patterns::read_exact;
  using patterns::write_all;
  std::vector<std::byte> message;
  while (true) {
    std::uint64_t length = 0;
    const auto deadline = patterns::deadline_clock::now() + sink_patience;
    try {
      read_exact(STDIN_FILENO, bytes_of(length), deadline, "pipe sender");
    } catch (const patterns::channel_closed&) {
      return 0;
    }
    if (length > pipe_sink_max_message_bytes) {
      std::fprintf(stderr, "pipe_sink: message of %llu bytes exceeds the cap\n",
                   static_cast<unsigned long long>(length));
      return 3;
    }
    try {
      message.resize(length);
      read_exact(STDIN_FILENO, message, deadline, "pipe sender");
      write_all(STDOUT_FILENO, bytes_of(length), deadline, "pipe sender");
      std::uint64_t hash = XXH3_64bits(message.data(), message.size());
      write_all(STDOUT_FILENO, bytes_of(hash), deadline, "pipe sender");
    } catch (const patterns::process_error& error) {
      std::fprintf(stderr, "pipe_sink: %s\n", error.what());
      return 4;
    }
  }
}

}  // namespace handoff::bench

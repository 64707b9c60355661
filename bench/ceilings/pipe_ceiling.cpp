// Pipe bandwidth between two processes: the coordinator writes a message into a pipe, a spawned
// sink reads all of it and acknowledges. Both kernel byte streams count, an anonymous pipe (spliced
// into, the fastest way to fill one) and a Unix stream socketpair (what Python's duplex Pipe() is),
// and the ceiling is the faster. Into the pipe the message goes in pieces, each hashed just before
// it is spliced, as the variants' senders do: the hash brings the piece into cache, where the
// sink's copy out of the kernel finds it, and a ceiling that spliced memory nothing had touched
// read slower at 256 MiB than the variants it bounds. A socket takes one large send faster than
// many small ones, so the socketpair gets the whole message at once. The clock stops at the
// acknowledgement, which carries the sink's running hash of what it received, checked against the
// sender's: every byte is verified.

#include <fcntl.h>
#include <sys/socket.h>
#include <xxhash.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "../harness/family_registry.hpp"
#include "../harness/measure.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/traffic.hpp"
#include "../workers/worker_roles.hpp"
#include "ceiling_sizes.hpp"
#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/process_errors.hpp"
#include "handoff/transport/spawned_process.hpp"

namespace handoff::bench::pipe_ceiling {
namespace {

constexpr auto message_deadline = std::chrono::seconds(60);
// Linux's default pipe-max-size; a larger pipe buffer means fewer wake-ups per megabyte.
constexpr int pipe_buffer_bytes = 1 << 20;
// The variants' frame pieces (tensor_transfer's frame_piece_bytes): a piece hashed stays in cache
// until it is written.
constexpr std::size_t sender_piece_bytes = std::size_t{128} << 10;

template <class Value>
std::span<std::byte> bytes_of(Value& value) {
  return std::as_writable_bytes(std::span(&value, 1));
}

enum class byte_stream { pipe, socketpair };

class pipe_sink_connection {
 public:
  explicit pipe_sink_connection(byte_stream transport) : transport_(transport) {
    auto to_sink = transport == byte_stream::socketpair ? transport::make_cloexec_socketpair()
                                                        : transport::make_cloexec_pipe();
    auto from_sink = transport::make_cloexec_pipe();
    if (transport == byte_stream::pipe) {
      ::fcntl(to_sink.write_end.get(), F_SETPIPE_SZ, pipe_buffer_bytes);  // best effort
    }
    sink_.emplace(transport::spawned_process::start(
        "pipe_sink", worker_command(pipe_sink_role),
        {.stdin_fd = to_sink.read_end.get(), .stdout_fd = from_sink.write_end.get()}));
    to_sink_ = std::move(to_sink.write_end);
    from_sink_ = std::move(from_sink.read_end);
  }
  pipe_sink_connection(const pipe_sink_connection&) = delete;
  pipe_sink_connection& operator=(const pipe_sink_connection&) = delete;

  ~pipe_sink_connection() {
    to_sink_.reset();  // the sink's cue to exit
    try {
      sink_->wait_for(std::chrono::seconds(10));
    } catch (...) {
      // wait_for has already killed and reaped it; nothing is left behind.
    }
  }

  // What the sink hashed as it received, and what the sender hashed as it sent (where it did).
  struct hashes {
    std::uint64_t received = 0;
    std::optional<std::uint64_t> sent;
  };

  // Sends one message; returns once the sink has acknowledged every byte. A sink that died is
  // named with its pid and signal.
  hashes send(std::span<const std::byte> message) {
    try {
      return send_unexplained(message);
    } catch (const transport::process_error& failure) {
      transport::throw_peer_failure(*sink_, failure);
    }
  }

 private:
  hashes send_unexplained(std::span<const std::byte> message) {
    const auto deadline = transport::deadline_clock::now() + message_deadline;
    std::uint64_t length = message.size();
    // Into a pipe, the fastest way in: spliced, as the queue puts a large message (the message
    // stays unchanged until the sink has acknowledged it).
    const auto write =
        transport_ == byte_stream::socketpair ? transport::send_all : transport::splice_all;
    write(to_sink_.get(), bytes_of(length), deadline, "pipe_sink");
    std::optional<std::uint64_t> sent;
    if (transport_ == byte_stream::socketpair) {
      // A socket takes one large send faster than many small ones: the whole message at once.
      write(to_sink_.get(), message, deadline, "pipe_sink");
    } else {
      XXH3_64bits_reset(sent_hash_.get());
      for (std::size_t offset = 0; offset < message.size(); offset += sender_piece_bytes) {
        const auto piece =
            message.subspan(offset, std::min(sender_piece_bytes, message.size() - offset));
        XXH3_64bits_update(sent_hash_.get(), piece.data(), piece.size());
        write(to_sink_.get(), piece, deadline, "pipe_sink");
      }
      sent = XXH3_64bits_digest(sent_hash_.get());
    }
    std::uint64_t reply[2] = {};
    transport::read_exact(from_sink_.get(), std::as_writable_bytes(std::span(reply)), deadline,
                          "pipe_sink");
    if (reply[0] != length) {
      throw transport::process_error("pipe_sink acknowledged " + std::to_string(reply[0]) + " of " +
                                     std::to_string(length) + " bytes");
    }
    return {reply[1], sent};
  }

  struct hash_state_deleter {
    void operator()(XXH3_state_t* state) const noexcept { XXH3_freeState(state); }
  };

  byte_stream transport_;
  std::unique_ptr<XXH3_state_t, hash_state_deleter> sent_hash_{XXH3_createState()};
  // Declared before the descriptors, destroyed after them: a sink still running is killed only
  // after its input has closed.
  std::optional<transport::spawned_process> sink_;
  transport::unique_fd to_sink_;
  transport::unique_fd from_sink_;
};

void pipe_bandwidth(benchmark::State& state, const row_context& context, std::size_t bytes,
                    byte_stream transport) {
  std::vector<float> payload(bytes / sizeof(float));
  reference::fill_seeded_nonzero(payload, 0x919E);
  const auto message = std::as_bytes(std::span(payload));
  const std::uint64_t expected_hash = XXH3_64bits(message.data(), message.size());
  pipe_sink_connection sink(transport);
  std::uint64_t wrong_hashes = 0;
  pipe_sink_connection::hashes last;
  measure_wall_region(
      state, context, [] {}, [&] { last = sink.send(message); },
      [&] {
        if (last.received != expected_hash || last.sent.value_or(expected_hash) != expected_hash)
          ++wrong_hashes;
      });
  set_traffic(state, static_cast<double>(bytes), static_cast<double>(payload.size()));
  record_verification(state, reference::verify_count(0, wrong_hashes));
}

void register_pipe_ceiling(const bench_environment& environment) {
  for (const std::size_t bytes : host_channel_sweep_bytes(environment.config)) {
    for (const auto& [transport, transport_name] :
         {std::pair{byte_stream::pipe, "pipe"}, {byte_stream::socketpair, "socketpair"}}) {
      register_benchmark(
          benchmark_name("ceilings", ceiling::pipe,
                         {{"transport", transport_name}, {"bytes", std::to_string(bytes)}}),
          [=](benchmark::State& state, const row_context& context) {
            pipe_bandwidth(state, context, bytes, transport);
          });
    }
  }
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("ceilings/pipe", 0, register_pipe_ceiling);

}  // namespace handoff::bench::pipe_ceiling

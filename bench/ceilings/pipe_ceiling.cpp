// Pipe bandwidth between two processes: the coordinator writes a message into a pipe, a spawned
// sink reads all of it and acknowledges. The clock stops at the acknowledgement, which carries the
// sink's running hash of what it received, so every byte is verified.

#include <fcntl.h>
#include <xxhash.h>

#include <chrono>
#include <optional>
#include <vector>

#include "../harness/family_registry.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/traffic.hpp"
#include "../workers/worker_roles.hpp"
#include "ceiling_names.hpp"
#include "ceiling_sizes.hpp"
#include "handoff/patterns/fd_io.hpp"
#include "handoff/patterns/process_errors.hpp"
#include "handoff/patterns/spawned_process.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::bench {
namespace {

constexpr auto message_deadline = std::chrono::seconds(60);
// Linux's default pipe-max-size; a larger pipe buffer means fewer wake-ups per megabyte.
constexpr int pipe_buffer_bytes = 1 << 20;

template <class Value>
std::span<std::byte> bytes_of(Value& value) {
  return std::as_writable_bytes(std::span(&value, 1));
}

class pipe_sink_connection {
 public:
  pipe_sink_connection() {
    auto to_sink = patterns::make_cloexec_pipe();
    auto from_sink = patterns::make_cloexec_pipe();
    ::fcntl(to_sink.write_end.get(), F_SETPIPE_SZ, pipe_buffer_bytes);  // best effort
    sink_.emplace(patterns::spawned_process::start(
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

  // Sends one message; returns once the sink has acknowledged every byte, with the sink's hash of
  // what it received.
  std::uint64_t send(std::span<const std::byte> message) {
    const auto deadline = patterns::deadline_clock::now() + message_deadline;
    std::uint64_t length = message.size();
    patterns::write_all(to_sink_.get(), bytes_of(length), deadline, "pipe_sink");
    patterns::write_all(to_sink_.get(), message, deadline, "pipe_sink");
    std::uint64_t reply[2] = {};
    patterns::read_exact(from_sink_.get(), std::as_writable_bytes(std::span(reply)), deadline,
                         "pipe_sink");
    if (reply[0] != length) {
      throw patterns::process_error("pipe_sink acknowledged " + std::to_string(reply[0]) + " of " +
                                    std::to_string(length) + " bytes");
    }
    return reply[1];
  }

 private:
  // Declared first, destroyed last: a sink still running is killed after its pipes are closed.
  std::optional<patterns::spawned_process> sink_;
  patterns::unique_fd to_sink_;
  patterns::unique_fd from_sink_;
};

void pipe_bandwidth(benchmark::State& state, std::size_t bytes) {
  std::vector<float> payload(bytes / sizeof(float));
  reference::fill_seeded_nonzero(payload, 0x919E);
  const auto message = std::as_bytes(std::span(payload));
  const std::uint64_t expected_hash = XXH3_64bits(message.data(), message.size());
  pipe_sink_connection sink;
  std::uint64_t wrong_hashes = 0;
  if (sink.send(message) != expected_hash) ++wrong_hashes;  // warm-up
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t received_hash = sink.send(message);
    const auto stop = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(stop - start).count());
    if (received_hash != expected_hash) ++wrong_hashes;
  }
  set_traffic(state, static_cast<double>(bytes), static_cast<double>(payload.size()));
  record_verification(state, reference::verify_count(0, wrong_hashes));
}

void register_pipe_ceiling(const bench_environment& environment) {
  for (const std::size_t bytes : host_channel_sweep_bytes(environment.config)) {
    register_benchmark(
        benchmark_name("ceilings", ceiling::pipe, {{"bytes", std::to_string(bytes)}}),
        [=](benchmark::State& state) { pipe_bandwidth(state, bytes); });
  }
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("ceilings/pipe", 0, register_pipe_ceiling);

}  // namespace handoff::bench

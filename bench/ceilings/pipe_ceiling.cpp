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
    ::fcntl(to_sink.write_end, F_SETPIPE_SZ, pipe_buffer_bytes);  // best effort
    sink_ = patterns::spawned_process::start(
        "pipe_sink", worker_command(pipe_sink_role),
        {.stdin_fd = to_sink.read_end, .stdout_fd = from_sink.write_end});
    patterns::close_fd(to_sink.read_end);
    patterns::close_fd(from_sink.write_end);
    to_sink_ = to_sink.write_end;
    from_sink_ = from_sink.read_end;
  }
  pipe_sink_connection(const pipe_sink_connection&) = delete;
  pipe_sink_connection& operator=(const pipe_sink_connection&) = delete;

  ~pipe_sink_connection() {
    patterns::close_fd(to_sink_);  // the sink's cue to exit
    try {
      if (sink_) sink_->wait_for(std::chrono::seconds(10));
    } catch (...) {
      // wait_for has already killed and reaped it; nothing is left behind.
    }
    patterns::close_fd(from_sink_);
  }

  // Sends one message; returns once the sink has acknowledged every byte.
  void send(std::span<const std::byte> message) {
    const auto deadline = patterns::deadline_clock::now() + message_deadline;
    std::uint64_t length = message.size();
    patterns::write_all(to_sink_, bytes_of(length), deadline, "pipe_sink");
    patterns::write_all(to_sink_, message, deadline, "pipe_sink");
    std::uint64_t acknowledged = 0;
    patterns::read_exact(from_sink_, bytes_of(acknowledged), deadline, "pipe_sink");
    if (acknowledged != length) {
      throw patterns::process_error("pipe_sink acknowledged " + std::to_string(acknowledged) +
                                    " of " + std::to_string(length) + " bytes");
    }
  }

  std::uint64_t receive_hash() {
    std::uint64_t hash = 0;
    patterns::read_exact(from_sink_, bytes_of(hash),
                         patterns::deadline_clock::now() + message_deadline, "pipe_sink");
    return hash;
  }

 private:
  std::optional<patterns::spawned_process> sink_;
  int to_sink_ = -1;
  int from_sink_ = -1;
};

void pipe_bandwidth(benchmark::State& state, std::size_t bytes) {
  std::vector<float> payload(bytes / sizeof(float));
  reference::fill_seeded_nonzero(payload, 0x919E);
  const auto message = std::as_bytes(std::span(payload));
  const std::uint64_t expected_hash = XXH3_64bits(message.data(), message.size());
  pipe_sink_connection sink;
  std::uint64_t wrong_hashes = 0;
  sink.send(message);  // warm-up: the sink's first message faults in its receive buffer
  if (sink.receive_hash() != expected_hash) ++wrong_hashes;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    sink.send(message);
    const auto stop = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(stop - start).count());
    if (sink.receive_hash() != expected_hash) ++wrong_hashes;
  }
  set_traffic(state, static_cast<double>(bytes), static_cast<double>(payload.size()));
  record_verification(state, reference::verify_count(0, wrong_hashes));
}

void register_pipe_ceiling(const bench_environment& environment) {
  const std::size_t bytes = ceiling_transfer_bytes(environment.config);
  register_benchmark(std::string("ceilings/") + ceiling::pipe,
                     [=](benchmark::State& state) { pipe_bandwidth(state, bytes); });
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("ceilings/pipe", 0, register_pipe_ceiling);

}  // namespace handoff::bench

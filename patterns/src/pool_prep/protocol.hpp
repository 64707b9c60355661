#pragma once
// The records pool_prep's coordinators and workers exchange. Fixed-size and trivially copyable,
// so each travels as one connection message; a failure carries its text, so the coordinator's
// error shows what went wrong inside the worker.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "handoff/transport/channels/peer_watch.hpp"
#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/process_errors.hpp"

namespace handoff::patterns::pool_prep::protocol {

struct failure_text {
  char text[512] = {};
  void set(std::string_view message) noexcept {
    const std::size_t length = std::min(message.size(), sizeof(text) - 1);
    std::copy_n(message.data(), length, text);
    text[length] = '\0';
  }
  std::string get() const { return std::string(text, ::strnlen(text, sizeof(text))); }
};

// A worker is up (its CUDA context created, its ring attached), or says why not.
struct ready_record {
  std::int32_t ok = 0;
  failure_text error;
};

inline constexpr std::uint64_t no_chunk = std::numeric_limits<std::uint64_t>::max();
// 2^28 floats (1 GiB) per chunk: the suite's element axes stop there.
inline constexpr std::uint64_t max_chunk_elements = std::uint64_t{1} << 28;

// seed / cpu_pool: one chunk to prepare, add and return by value.
struct map_request {
  std::uint64_t chunk = 0;
  std::uint64_t offset = 0;
  std::uint64_t count = 0;
  std::uint64_t seed_a = 0;
  std::uint64_t seed_b = 0;
  std::uint32_t stall = 0;  // test hook: never answer, so a test can kill the worker mid-batch
};

// Followed, in the same message, by count floats when ok.
struct map_reply_header {
  std::uint64_t chunk = 0;
  std::uint64_t count = 0;
  std::int32_t ok = 0;
  double prep = 0, h2d = 0, kernel = 0, d2h = 0;
  failure_text error;
};

// shared_gpu: prepare piece `worker` of `workers` (np.array_split of the chunk) of every chunk of
// the batch, in chunk order, into the ring.
struct ring_request {
  std::uint64_t total = 0;
  std::uint64_t chunks = 0;
  std::uint64_t worker = 0;
  std::uint64_t workers = 1;
  std::uint64_t seed_a = 0;
  std::uint64_t seed_b = 0;
  std::uint64_t stall_chunk = no_chunk;  // test hook, as map_request::stall
};

// Sent once the worker has published its piece of every chunk (or failed).
struct ring_reply {
  std::int32_t ok = 0;
  std::uint64_t chunks_prepared = 0;
  double prep = 0;
  failure_text error;
};

// How long an idle worker waits for its next request before it gives up on its coordinator.
inline constexpr auto worker_idle_limit = std::chrono::minutes(10);

// A worker's check that its coordinator is still there: orphaned, it is re-parented.
transport::peer_watch coordinator_watch();

// The test hook's stall: sleeps until the coordinator kills this worker, or goes away itself.
[[noreturn]] void stall_until_killed();

std::chrono::milliseconds parse_patience(std::string_view milliseconds);

}  // namespace handoff::patterns::pool_prep::protocol

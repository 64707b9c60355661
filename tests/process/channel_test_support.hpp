#pragma once
// Helpers shared by the channel conformance tests (process_queue, shm_ring): deadlines, the
// coordinator-side and worker-side liveness checks, and a shared-memory leak check that looks only
// at the segments this test process named, so tests running beside it cannot disturb it.

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>

#include "handoff/transport/channels/peer_watch.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "support/leak_checks.hpp"

namespace handoff::patterns::channel_testing {

using namespace std::chrono_literals;

inline transport::deadline_clock::time_point in(transport::deadline_clock::duration time) {
  return transport::deadline_clock::now() + time;
}

// Every channel a test creates is named with this, so its segments can be told from others'.
inline std::string test_purpose(const std::string& what) {
  return "test-" + std::to_string(::getpid()) + "-" + what;
}

inline std::set<std::string> segments_named_by_this_process() {
  const std::string prefix = "handoff-test-" + std::to_string(::getpid()) + "-";
  return handoff::leak_checks::held_segments_containing(prefix);
}

// Fails a test after which this process still holds any of its segments, kill tests included.
class leaves_no_segment_held : public testing::Test {
 protected:
  void TearDown() override {
    EXPECT_TRUE(segments_named_by_this_process().empty())
        << "segments still held: " << testing::PrintToString(segments_named_by_this_process());
  }
};

// A worker's check that its coordinator is still there: orphaned, it is re-parented.
inline transport::peer_watch coordinator_watch() {
  const pid_t coordinator = ::getppid();
  return [coordinator] {
    if (::getppid() != coordinator)
      throw transport::channel_closed("the coordinator has gone away");
  };
}

// A worker that has done its part stays alive until the coordinator closes its channel, so that
// the coordinator can keep using worker_pool::check_alive as its peer_watch until then.
inline int stay_until_released(transport::connection& channel) {
  try {
    channel.receive(in(60s), 64);
  } catch (const transport::channel_closed&) {
  }
  return 0;
}

// Waits until the pool reports the worker's death, so that a later peer_watch sees it at once.
inline void wait_until_pool_sees_a_death(transport::worker_pool& pool) {
  const auto deadline = in(5s);
  while (transport::deadline_clock::now() < deadline) {
    try {
      pool.check_alive();
    } catch (const transport::worker_died&) {
      return;
    }
    std::this_thread::sleep_for(1ms);
  }
  FAIL() << "the killed worker was still running after 5 s";
}

// A worker's index-th argument; a missing one is an error, not undefined behaviour.
inline const std::string& argument(std::span<const std::string> arguments, std::size_t index) {
  if (index >= arguments.size()) {
    throw std::invalid_argument("worker argument " + std::to_string(index) + " is missing");
  }
  return arguments[index];
}

}  // namespace handoff::patterns::channel_testing

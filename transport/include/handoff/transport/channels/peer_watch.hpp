#pragma once
// A liveness check that a blocking channel call runs while it waits, so that a dead peer is noticed
// long before the deadline: worker_pool::check_alive in a coordinator, or a test of getppid() in a
// worker. It reports a death by throwing; the wait lets that exception through unchanged.

#include <chrono>
#include <functional>

namespace handoff::transport {

using peer_watch = std::function<void()>;

// A wait calls its watch at least this often, also while bytes keep moving.
inline constexpr std::chrono::milliseconds peer_watch_interval{50};

}  // namespace handoff::transport

#pragma once
// A request to stop the whole process now (the user's Ctrl-C, a scheduler's SIGTERM or SIGHUP).
// Every wait in a coordinator wakes at least every stop_check_interval and, once a stop has been
// asked for, gives up with stop_requested, so that a run stops within about a second whatever its
// workers are doing: stalled, stopped or dead.

#include <chrono>
#include <string_view>

#include "handoff/transport/process_errors.hpp"

namespace handoff::transport {

inline constexpr std::chrono::milliseconds stop_check_interval{100};

// A deadline_exceeded, since a stop cuts a wait short as a deadline does: every path that cleans up
// after a missed deadline (killing the worker it waited for) cleans up after a stop too.
class stop_requested : public deadline_exceeded {
 public:
  using deadline_exceeded::deadline_exceeded;
};

// Async-signal-safe: a signal handler calls it.
void request_stop() noexcept;
bool stop_is_requested() noexcept;
// For tests: forget an earlier request.
void clear_stop_request() noexcept;

// Throws stop_requested, naming the wait it cut short, once a stop has been requested.
void throw_if_stop_requested(std::string_view waiting_for);

}  // namespace handoff::transport

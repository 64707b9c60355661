#include "handoff/transport/stop_request.hpp"

#include <atomic>
#include <string>

namespace handoff::transport {
namespace {

std::atomic<bool> stop_asked{false};
static_assert(std::atomic<bool>::is_always_lock_free, "request_stop runs in a signal handler");

}  // namespace

void request_stop() noexcept {
  stop_asked.store(true, std::memory_order_relaxed);
}

bool stop_is_requested() noexcept {
  return stop_asked.load(std::memory_order_relaxed);
}

void clear_stop_request() noexcept {
  stop_asked.store(false, std::memory_order_relaxed);
}

void throw_if_stop_requested(std::string_view waiting_for) {
  if (stop_is_requested()) {
    throw stop_requested(std::string(waiting_for) + ": stopped, the run was asked to stop");
  }
}

}  // namespace handoff::transport

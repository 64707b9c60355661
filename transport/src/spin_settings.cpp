#include "handoff/transport/spin_settings.hpp"

#include <sched.h>

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "handoff/transport/channels/peer_watch.hpp"
#include "handoff/transport/peer_cores.hpp"
#include "handoff/transport/stop_request.hpp"

namespace handoff::transport {

static_assert(longest_spin * 4 <= peer_watch_interval && longest_spin * 4 <= stop_check_interval,
              "a spin must end well before a dead peer or a stop request is due to be seen");

spin_turn spin_turn_from_environment() {
  const char* setting = std::getenv("HANDOFF_SPIN");
  const std::string_view value = setting == nullptr ? "" : setting;
  if (value.empty() || value == "yield") return spin_turn::yield;
  if (value == "pause") return spin_turn::pause;
  if (value == "peer") return spin_turn::peer;
  throw std::invalid_argument("HANDOFF_SPIN must be yield, pause or peer, not '" +
                              std::string(value) + "'");
}

const char* name_of(spin_turn turn) noexcept {
  switch (turn) {
    case spin_turn::pause:
      return "pause";
    case spin_turn::peer:
      return "peer";
    case spin_turn::yield:
      break;
  }
  return "yield";
}

std::chrono::microseconds spin_length_from_environment() {
  const char* setting = std::getenv("HANDOFF_SPIN_US");
  const std::string_view value = setting == nullptr ? "" : setting;
  if (value.empty()) return spin_before_sleeping;
  constexpr long longest = std::chrono::microseconds(longest_spin).count();
  long microseconds = 0;
  const auto [end, error] =
      std::from_chars(value.data(), value.data() + value.size(), microseconds);
  if (error != std::errc{} || end != value.data() + value.size() || microseconds < 0 ||
      microseconds > longest) {
    throw std::invalid_argument(
        "HANDOFF_SPIN_US must be a whole number of microseconds from 0 to " +
        std::to_string(longest) + ", not '" + std::string(value) + "'");
  }
  return std::chrono::microseconds(microseconds);
}

namespace {

// handoff_bench has checked both settings before any spin, and a worker inherits its environment;
// a process started some other way with a bad value spins the default way.
template <class Setting>
Setting from_environment_or(Setting (*read)(), Setting fallback) noexcept {
  try {
    return read();
  } catch (const std::invalid_argument&) {
    return fallback;
  }
}

}  // namespace

std::chrono::microseconds spin_length() noexcept {
  static const auto length = from_environment_or(spin_length_from_environment,
                                                 std::chrono::microseconds(spin_before_sleeping));
  return length;
}

void offer_the_core() noexcept {
  static const auto turn = from_environment_or(spin_turn_from_environment, spin_turn::yield);
  if (turn == spin_turn::yield || (turn == spin_turn::peer && a_peer_last_ran_on_this_core())) {
    sched_yield();
    return;
  }
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace handoff::transport

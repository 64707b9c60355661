#include "protocol.hpp"

#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace handoff::patterns::pool_prep::protocol {

transport::peer_watch coordinator_watch() {
  const pid_t coordinator = ::getppid();
  return [coordinator] {
    if (::getppid() != coordinator) {
      throw transport::channel_closed("the coordinator (pid " + std::to_string(coordinator) +
                                      ") has gone away");
    }
  };
}

void stall_until_killed() {
  const auto watch = coordinator_watch();
  const auto give_up = transport::deadline_clock::now() + worker_idle_limit;
  while (transport::deadline_clock::now() < give_up) {
    watch();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::_Exit(3);
}

std::chrono::milliseconds parse_patience(std::string_view milliseconds) {
  const std::string text(milliseconds);
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || value <= 0) {
    throw std::invalid_argument("pool_prep worker: bad patience '" + text +
                                "': expected a positive number of milliseconds");
  }
  return std::chrono::milliseconds(value);
}

}  // namespace handoff::patterns::pool_prep::protocol

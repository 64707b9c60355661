#include "interruption.hpp"

#include <csignal>
#include <cstring>

namespace handoff::bench {
namespace {

volatile std::sig_atomic_t received_signal = 0;

extern "C" void note_interrupt(int signal_number) {
  received_signal = signal_number;
  // The next one is not caught: a user who insists gets the process killed at once.
  std::signal(signal_number, SIG_DFL);
}

}  // namespace

void stop_cleanly_on_interrupt() {
  struct sigaction action {};
  action.sa_handler = note_interrupt;
  sigemptyset(&action.sa_mask);
  // No SA_RESTART: a coordinator blocked reading a worker's pipe sees EINTR and the transport's
  // retry loop comes back to the sampling loop's check soon after.
  action.sa_flags = 0;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool run_interrupted() noexcept {
  return received_signal != 0;
}

int interrupting_signal() noexcept {
  return received_signal;
}

std::string interruption_reason() {
  switch (received_signal) {
    case 0:
      return {};
    case SIGINT:
      return "interrupted by SIGINT";
    case SIGTERM:
      return "interrupted by SIGTERM";
    default:
      return std::string("interrupted by signal ") + std::to_string(received_signal);
  }
}

void simulate_interrupt(int signal_number) noexcept {
  received_signal = signal_number;
}

}  // namespace handoff::bench

#include "interruption.hpp"

#include <unistd.h>

#include <csignal>
#include <cstring>

#include "handoff/transport/stop_request.hpp"

namespace handoff::bench {
namespace {

volatile std::sig_atomic_t received_signal = 0;

// Generous against the second or so a clean stop takes, and far below the minutes a worker's
// deadline could hold it: a stop that hangs (a driver call that never returns) still ends.
constexpr unsigned clean_stop_watchdog_seconds = 20;

void say(const char* text) noexcept {
  // write(2) is async-signal-safe; a short write to a closed stderr is of no consequence.
  [[maybe_unused]] const auto ignored = ::write(STDERR_FILENO, text, std::strlen(text));
}

extern "C" void note_interrupt(int signal_number) {
  if (received_signal != 0) {
    say("handoff_bench: already stopping; the results file is being closed\n");
    return;
  }
  received_signal = signal_number;
  transport::request_stop();
  say("handoff_bench: stopping: ending the workers and closing the results file\n");
  // SIGALRM's default action ends the process.
  ::alarm(clean_stop_watchdog_seconds);
}

}  // namespace

void stop_cleanly_on_interrupt() {
  struct sigaction action {};
  action.sa_handler = note_interrupt;
  sigemptyset(&action.sa_mask);
  // No SA_RESTART: a coordinator blocked in a system call sees EINTR, and every wait also checks
  // the stop request at least every transport::stop_check_interval.
  action.sa_flags = 0;
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP})
    sigaction(signal_number, &action, nullptr);
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
    case SIGHUP:
      return "interrupted by SIGHUP";
    default:
      return std::string("interrupted by signal ") + std::to_string(received_signal);
  }
}

void simulate_interrupt(int signal_number) noexcept {
  received_signal = signal_number;
  if (signal_number == 0) {
    transport::clear_stop_request();
  } else {
    transport::request_stop();
  }
}

}  // namespace handoff::bench

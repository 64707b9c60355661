#pragma once
// SIGINT and SIGTERM end a run cleanly instead of killing it: the first one sets a flag, the row
// being measured stops sampling, the rows after it are skipped, the families' pools and shared
// memory are released as at a normal end, and the results file is left valid, marked incomplete.
// A second signal kills the process the ordinary way, for a run that must stop now.

#include <string>

namespace handoff::bench {

void stop_cleanly_on_interrupt();

bool run_interrupted() noexcept;

// 0 while not interrupted, else the signal's number.
int interrupting_signal() noexcept;

// "interrupted by SIGINT", or empty while not interrupted.
std::string interruption_reason();

// For tests: as if the signal had arrived.
void simulate_interrupt(int signal_number) noexcept;

}  // namespace handoff::bench

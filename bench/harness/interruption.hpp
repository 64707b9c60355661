#pragma once
// SIGINT, SIGTERM and SIGHUP end a run cleanly instead of killing it: the first one sets a flag and
// asks the transport to stop (transport/stop_request.hpp), so that every wait on a worker gives up
// within a fraction of a second whatever the worker is doing; the row being measured stops, the
// rows after it are skipped, the families' pools and shared memory are released as at a normal
// end, and the results file is left valid, marked incomplete with the signal. Later signals change
// nothing: the run is already stopping, and a watchdog kills it should the clean stop itself hang.

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

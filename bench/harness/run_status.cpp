#include "run_status.hpp"

#include <iostream>

#include "interruption.hpp"
#include "outcome.hpp"

namespace handoff::bench {

std::string one_iteration_min_time_flag() {
#if defined(HANDOFF_BENCHMARK_MIN_TIME_HAS_SUFFIX)
  return "--benchmark_min_time=1x";
#else
  // Any positive time below one sample's: the first iteration already meets it.
  return "--benchmark_min_time=0.000000001";
#endif
}

int exit_status_of_run(std::string_view program, std::size_t ran, const std::string& results_path,
                       std::string_view hint) {
  if (run_interrupted()) {
    std::cerr << program << ": " << interruption_reason() << "; workers stopped, results so far in "
              << (results_path.empty() ? "(no results file)" : results_path)
              << ", marked incomplete\n";
    return 128 + interrupting_signal();
  }
  if (ran == 0) {
    std::cerr << program << ": no benchmark ran: the filter matched none of those this machine "
              << "can run" << hint << "\n";
    return 2;
  }
  const int failures = failed_benchmark_count();
  if (failures > 0) {
    std::cerr << program << ": " << failures << " benchmark(s) failed verification or errored\n";
    return 1;
  }
  return 0;
}

}  // namespace handoff::bench

#pragma once
// How a run of the driver's rows is started and judged, the same for handoff_bench and for the
// Python package's runs (python/src/python_run.cpp).

#include <cstddef>
#include <string>
#include <string_view>

namespace handoff::bench {

// Google Benchmark's flag for one iteration a row: the driver samples inside it until the row's
// noise target (measure.hpp).
std::string one_iteration_min_time_flag();

// The exit status of a run that ended, before the results file is judged: 128 + the signal of an
// interruption, 2 where no row ran (hint says where to look), 1 where a row failed verification
// or errored, else 0. Each but the last is said on standard error, after program's name.
int exit_status_of_run(std::string_view program, std::size_t ran, const std::string& results_path,
                       std::string_view hint);

}  // namespace handoff::bench

#pragma once
// The rows the headline table is made of, from the two places a run's figures live: the rows a
// run collected as it went (for the table printed at its end), and a results file (what the report
// reads). Both read a row as the report does (reports/handoff_reports/results.py): all its
// repetitions, its floor, and whether it failed.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ceiling_summary.hpp"
#include "headline_table.hpp"

namespace handoff::bench {

// runs: the verified repetitions; failed_names: the benchmarks that errored or had a wrong result
// in any repetition; floors: each benchmark's floor (efficiencies_from). Rows in the order their
// first repetition ran.
std::vector<headline_row> headline_rows_from(const std::vector<measured_run>& runs,
                                             const std::vector<std::string>& failed_names,
                                             const std::vector<efficiency_row>& floors);

// The rows of a results file written by handoff_bench; std::invalid_argument for a file the report
// would refuse (no benchmarks, a row without a time, an unknown time unit).
std::vector<headline_row> headline_rows_from(const nlohmann::json& results);

}  // namespace handoff::bench

#pragma once
// Writes the ceiling summary into the results JSON itself, so that a report reading only the JSON
// sees the same floors, efficiencies, SUSPECT flags and scaling as the console: each benchmark with
// a floor gains "floor_seconds", "efficiency" and "suspect"; each with a gpus:N axis whose gpus:1
// row ran gains "scaling_efficiency", "scaling_speedup" and "scaling_baseline"; and the file gains
// "handoff_ceilings" and "handoff_ceilings_source".

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ceiling_summary.hpp"

namespace handoff::bench {

// The --benchmark_out file when it is JSON (the default format), else an empty string.
std::string json_results_path(int argc, char** argv);

// Adds the ceilings (and where they come from), each row's floor, efficiency and suspect flag, and
// the scaling fields.
void annotate(nlohmann::json& results, const std::vector<measured_run>& runs);

// annotate() on a results file, in place.
void annotate_results(const std::string& path, const std::vector<measured_run>& runs);

void write_json_atomically(const std::string& path, const nlohmann::json& results);

}  // namespace handoff::bench

#pragma once
// The environment manifest: what ran, on what, built how. It goes into the JSON "context" so that
// every results file says which machine and which source produced it.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "family_registry.hpp"
#include "gpu_clocks.hpp"

namespace handoff::bench {

std::map<std::string, std::string> collect_manifest(const bench_environment& environment);
void add_manifest_to_context(const std::map<std::string, std::string>& manifest);
void add_skipped_to_context(const std::vector<family_plan>& plan);

// How the run was made, as setting_* context entries: compare and track refuse to call a regression
// between runs whose measurement settings differ.
struct run_settings {
  std::string filter;
  int repetitions = 1;
};
std::map<std::string, std::string> describe_settings(const bench_config& config,
                                                     const run_settings& run);
void add_settings_to_context(const std::map<std::string, std::string>& settings);

// The GPU's clocks as the run starts (gpu_*_at_start), when NVML can say.
void add_clocks_to_context(const std::optional<gpu_clock_reading>& clocks);

}  // namespace handoff::bench

#include "results_annotation.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

#include "bounded_json.hpp"
#include "ceiling_source.hpp"
#include "floor_model.hpp"
#include "results_file.hpp"
#include "scaling_summary.hpp"

namespace handoff::bench {

std::string json_results_path(int argc, char** argv) {
  std::string path;
  std::string format = "json";
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument.starts_with("--benchmark_out=")) path = argument.substr(16);
    if (argument.starts_with("--benchmark_out_format=")) format = argument.substr(23);
  }
  return format == "json" ? path : std::string();
}

void annotate(nlohmann::json& results, const std::vector<measured_run>& runs) {
  const auto ceilings = ceilings_for_this_run(runs);
  auto& summary = results["handoff_ceilings"];
  summary = nlohmann::json::object();
  for (const auto& [name, ceiling] : ceilings) {
    summary[name] = {{"value", ceiling.value},
                     {"unit", ceiling.is_latency ? "seconds" : "bytes_per_second"}};
    // The rate at each size, so that a run reusing these ceilings prices as this one did.
    if (!ceiling.rate_by_bytes.empty()) summary[name]["rate_by_bytes"] = ceiling.rate_by_bytes;
  }
  const auto& source = active_ceilings_source();
  results["handoff_ceilings_source"] = {{"kind", source.kind},
                                        {"file", source.file},
                                        {"measured_at", source.measured_at},
                                        {"note", source.note()}};
  const auto rows = efficiencies_from(runs, ceilings);
  const auto scaling = scaling_from(runs);
  for (auto& benchmark : results["benchmarks"]) {
    if (benchmark.value("run_type", "") != "iteration") continue;
    const auto name = benchmark.value("name", "");
    // Scaling against one GPU: the fields a report needs to plot and to find the baseline row.
    if (const auto found = std::ranges::find(scaling, name, &scaling_row::name);
        found != scaling.end()) {
      benchmark["scaling_efficiency"] = found->efficiency();
      benchmark["scaling_speedup"] = found->speedup();
      benchmark["scaling_baseline"] = found->baseline_name;
    }
    const auto row = std::ranges::find(rows, name, &efficiency_row::name);
    if (row == rows.end()) continue;
    if (!row->floor_seconds) {
      benchmark["floor_missing_ceiling"] = row->missing_ceiling;
      continue;
    }
    benchmark["floor_seconds"] = *row->floor_seconds;
    benchmark["floor_model"] = describe_floor(*row);
    benchmark["efficiency"] = row->efficiency();
    benchmark["suspect"] = row->suspect();
  }
}

void annotate_results(const std::string& path, const std::vector<measured_run>& runs) {
  const std::string what = "the results file";
  auto results = parse_bounded_json(read_bounded_file(path, what), what + " " + path);
  annotate(results, runs);
  write_json_atomically(path, results);
}

void write_json_atomically(const std::string& path, const nlohmann::json& results) {
  replace_file_atomically(path, results.dump(2) + "\n");
}

}  // namespace handoff::bench

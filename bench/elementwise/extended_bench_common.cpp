#include "extended_bench_common.hpp"

#include <algorithm>

#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/traffic.hpp"

namespace handoff::bench {
namespace {

// 2^24 rather than 2^26 keeps the whole sweep near a minute at --handoff-min-time=0.2. On an
// H100 host every CPU/GPU crossing lay at or below 2^20, and gpu_resident reached 80-98% of its
// floor from 2^22 on, so the larger sizes add time but no finding.
constexpr std::size_t largest_elementwise_count = std::size_t{1} << 24;
constexpr std::size_t map_max_elements = std::size_t{1} << 14;
constexpr std::size_t map_max_order = 256;

}  // namespace

std::vector<std::size_t> extended_sizes(extended_workload workload, const bench_config& config) {
  if (workload == extended_workload::affine) {
    if (config.smoke) return {37};
    std::vector<std::size_t> orders;
    for (const std::size_t n : {64, 256, 1000, 2048}) {
      if (n * n <= config.max_elements) orders.push_back(n);
    }
    return orders;
  }
  if (config.smoke) return {1027};
  std::vector<std::size_t> counts;
  const std::size_t cap = std::min<std::uint64_t>(largest_elementwise_count, config.max_elements);
  for (std::size_t count = 1 << 10; count <= cap; count *= 4)
    counts.push_back(count);
  return counts;
}

bool within_map_cap(extended_workload workload, std::size_t size) {
  return workload == extended_workload::affine ? size <= map_max_order : size <= map_max_elements;
}

std::string extended_benchmark_name(const std::string& variant, extended_workload workload,
                                    std::size_t size, const char* start) {
  std::vector<std::pair<std::string, std::string>> axes{
      {"workload", std::string(patterns::elementwise::workload_name(workload))},
      {workload == extended_workload::affine ? "n" : "elements", std::to_string(size)}};
  if (start != nullptr) axes.emplace_back("start", start);
  return benchmark_name("elementwise", variant, axes);
}

void finish_extended(benchmark::State& state, const extended_data& data,
                     std::span<const float> result) {
  const auto problem = data.problem();
  const auto elements = static_cast<double>(problem.output_count());
  set_traffic(state, static_cast<double>(problem.input_bytes() + problem.output_bytes()), elements);
  state.counters["elements"] = elements;
  if (data.workload == extended_workload::affine) {
    const auto n = static_cast<double>(data.size);
    state.counters["n"] = n;
    state.counters["flops"] = 2.0 * n * n * n + n * n;
  }
  record_verification(state, data.verify(result));
}

}  // namespace handoff::bench

// elementwise/<variant>/workload:vector_add/elements:<n>: seed 000's vector add, from one CPU
// thread up to data resident on the GPU. The variants, their sessions and floors (the stages the
// data must cross, priced by the ceilings of the same run) are the table
// patterns/elementwise/vector_add_table.hpp; this file is the sweep and the names, and the driver
// measures every row.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/profile_points.hpp"
#include "handoff/patterns/elementwise/vector_add_table.hpp"

namespace handoff::bench::vector_add {
namespace {

using patterns::compute_target;
using patterns::elementwise::vector_add_case;
using patterns::elementwise::vector_add_point;

const pattern_spec<vector_add_point, vector_add_case>& spec() {
  static const pattern_spec<vector_add_point, vector_add_case> vector_add{
      .pattern = "elementwise",
      .table = patterns::elementwise::vector_add_variants(),
      .make_case = patterns::elementwise::make_vector_add_case,
      .traffic =
          [](const vector_add_point& at) {
            return std::pair{patterns::elementwise::vector_add_bytes(at.count),
                             static_cast<double>(at.count)};
          },
      .figures = nullptr};
  return vector_add;
}

// Powers of 4 from 2^10 to the cap, plus 10M, the size seed 000 uses and the reference figures
// quote; the default profile keeps 2^10, 2^16, 2^24 and 10M. A smoke run uses one size that is not
// a multiple of 4, to cover the kernel's tail.
std::vector<std::size_t> element_counts(const bench_config& config) {
  if (auto chosen = chosen_values(config, "elements")) return *chosen;
  if (config.smoke) return {1027};
  std::vector<std::size_t> counts;
  for (std::uint64_t count = 1 << 10; count <= config.max_elements; count *= 4) {
    counts.push_back(count);
    if (count > config.max_elements / 4) break;  // the next step would pass the cap or overflow
  }
  constexpr std::size_t seed_size = 10'000'000;
  if (seed_size <= config.max_elements) counts.push_back(seed_size);
  return profile_points<std::size_t>(
      config, counts, {std::size_t{1} << 16, std::size_t{1} << 24, std::size_t{10'000'000}});
}

// Every row of the table that runs on target (the CPU variants in the CPU family, the device
// ones in the GPU family), so a new variant has rows without a line here.
void register_variants(const bench_environment& environment, compute_target target) {
  // Size-major, so consecutive benchmarks share the cached case of one size.
  for (const std::size_t count : element_counts(environment.config)) {
    for (const auto& row : spec().table) {
      const bool in_family = target == compute_target::device ? !row.targets.cpu : row.targets.cpu;
      if (!in_family) continue;
      const auto name =
          benchmark_name("elementwise", std::string(row.name),
                         {{"workload", "vector_add"}, {"elements", std::to_string(count)}});
      register_variant(spec(), row, {.count = count}, target, start::warm, name);
    }
  }
}

void register_cpu_variants(const bench_environment& environment) {
  register_variants(environment, compute_target::host_stand_in);
}

void register_gpu_variants(const bench_environment& environment) {
  register_variants(environment, compute_target::device);
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("elementwise/vector_add/cpu", 0, register_cpu_variants);
HANDOFF_BENCHMARK_FAMILY("elementwise/vector_add/gpu", 1, register_gpu_variants);

}  // namespace handoff::bench::vector_add

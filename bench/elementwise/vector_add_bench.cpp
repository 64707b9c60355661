// elementwise/<variant>/workload:vector_add/elements:<n>: seed 000's vector add, from one CPU
// thread up to data resident on the GPU. The variants, their sessions and floors (the stages the
// data must cross, priced by the ceilings of the same run) are the table
// patterns/elementwise/vector_add_table.hpp; this file declares the sweep and the names
// (sweep_registrar.hpp registers every row of the table over them), and the driver measures them.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/profile_points.hpp"
#include "../harness/sweep_registrar.hpp"
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

name_axes axes(const vector_add_point& at, compute_target, std::optional<start>) {
  return {{"workload", "vector_add"}, {"elements", std::to_string(at.count)}};
}

std::vector<vector_add_point> points(const bench_config& config) {
  std::vector<vector_add_point> made;
  for (const std::size_t count : element_counts(config))
    made.push_back({.count = count});
  return made;
}

// Every row of the table, the CPU variants in the CPU family and the device ones in the GPU
// family, so a new variant has rows without a line here.
constexpr pattern_sweep<vector_add_point, vector_add_case> sweep{
    .spec = spec, .points = points, .axes = axes};

}  // namespace

HANDOFF_BENCHMARK_FAMILY("elementwise/vector_add/cpu", 0,
                         register_sweep_on<sweep, compute_target::host_stand_in>);
HANDOFF_BENCHMARK_FAMILY("elementwise/vector_add/gpu", 1,
                         register_sweep_on<sweep, compute_target::device>);

}  // namespace handoff::bench::vector_add

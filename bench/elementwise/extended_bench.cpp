// elementwise/<variant>/workload:<square|neg_b_over_a>/elements:<count> and
// elementwise/<variant>/workload:affine/n:<order> (with /start:<warm|cold> for the rows that have
// a cold start): seed 002's workloads. The variants, their sessions and floors are the table
// patterns/elementwise/extended_table.hpp; this file declares the sweep and the names
// (sweep_registrar.hpp registers every row of the table over them), and the driver measures them.
// Every variant runs at the same sizes per workload (cpu_map only up to its cap, cpu_blas only
// affine), so a report can find, per workload, the smallest size at which a GPU variant beats the
// best CPU variant. The counters it needs: elements (output values), items
// (= elements), bytes (inputs + output), and for affine n and flops (2 n^3 + n^2).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/profile_points.hpp"
#include "../harness/sweep_registrar.hpp"
#include "handoff/patterns/elementwise/extended_table.hpp"
#include "handoff/patterns/elementwise/map_pool.hpp"
#include "handoff/transport/process/worker_role.hpp"

namespace handoff::bench::extended_elementwise {
namespace {

using patterns::compute_target;
using patterns::named_figure;
using patterns::elementwise::extended_case;
using patterns::elementwise::extended_point;
using patterns::elementwise::extended_workload;

HANDOFF_WORKER_ROLE(patterns::elementwise::map_worker_role, patterns::elementwise::run_map_worker);

// 2^24 rather than 2^26 keeps the whole sweep near a minute at --handoff-min-time=0.2. On an
// H100 host every CPU/GPU crossing lay at or below 2^20, and gpu_resident reached 80-98% of its
// floor from 2^22 on, so the larger sizes add time but no finding.
constexpr std::size_t largest_elementwise_count = std::size_t{1} << 24;

constexpr extended_workload all_workloads[] = {
    extended_workload::square, extended_workload::neg_b_over_a, extended_workload::affine};

std::vector<named_figure> point_figures(const extended_point& at) {
  std::vector<named_figure> figures{{"elements", patterns::elementwise::extended_elements(at)}};
  if (at.workload == extended_workload::affine) {
    const auto n = static_cast<double>(at.size);
    figures.push_back({"n", n});
    figures.push_back({"flops", 2.0 * n * n * n + n * n});
  }
  return figures;
}

const pattern_spec<extended_point, extended_case>& spec() {
  static const pattern_spec<extended_point, extended_case> extended{
      .pattern = "elementwise",
      .table = patterns::elementwise::extended_variants(),
      .make_case = patterns::elementwise::make_extended_case,
      .traffic =
          [](const extended_point& at) {
            return std::pair{patterns::elementwise::extended_bytes(at),
                             patterns::elementwise::extended_elements(at)};
          },
      .figures = point_figures};
  return extended;
}

// Powers of 4 from 2^10 to 2^24 within --handoff-max-elements for square and neg_b_over_a; the
// orders 64, 256, 1000 (the seed's) and 2048 for affine, within the same cap on n * n. Smoke runs
// use 1027 elements and n = 37, sizes that divide by nothing the kernels like. The default profile
// keeps 2^10, 2^16, 2^20, and n = 64 and 1000.
std::vector<std::size_t> sizes(extended_workload workload, const bench_config& config) {
  if (workload == extended_workload::affine) {
    if (auto chosen = chosen_values(config, "n")) return *chosen;
    if (config.smoke) return {37};
    std::vector<std::size_t> orders;
    for (const std::size_t n : {64, 256, 1000, 2048}) {
      if (n * n <= config.max_elements) orders.push_back(n);
    }
    return profile_points<std::size_t>(config, orders, {1000});
  }
  if (auto chosen = chosen_values(config, "elements")) return *chosen;
  if (config.smoke) return {1027};
  std::vector<std::size_t> counts;
  const std::size_t cap = std::min<std::uint64_t>(largest_elementwise_count, config.max_elements);
  for (std::size_t count = 1 << 10; count <= cap; count *= 4)
    counts.push_back(count);
  return profile_points<std::size_t>(config, counts, {std::size_t{1} << 16, std::size_t{1} << 20});
}

std::vector<extended_point> points(const bench_config& config) {
  std::vector<extended_point> made;
  for (const auto workload : all_workloads) {
    for (const std::size_t size : sizes(workload, config))
      made.push_back({.workload = workload, .size = size});
  }
  return made;
}

name_axes axes(const extended_point& at, compute_target, std::optional<start> how) {
  name_axes made{
      {"workload", std::string(patterns::elementwise::workload_name(at.workload))},
      {at.workload == extended_workload::affine ? "n" : "elements", std::to_string(at.size)}};
  if (how) made.emplace_back("start", *how == start::cold ? "cold" : "warm");
  return made;
}

int cold_samples(const bench_config& config, const extended_point&) {
  return config.smoke ? 2 : 3;
}

// Every row of the table at the points it runs at (cpu_map is capped, cpu_blas runs the GEMM
// only), the CPU variants in the CPU family and the device ones in the GPU family.
constexpr pattern_sweep<extended_point, extended_case> sweep{
    .spec = spec, .points = points, .axes = axes, .cold_samples = cold_samples};

}  // namespace

HANDOFF_BENCHMARK_FAMILY("elementwise/extended/cpu", 0,
                         register_sweep_on<sweep, compute_target::host_stand_in>);
HANDOFF_BENCHMARK_FAMILY("elementwise/extended/gpu", 1,
                         register_sweep_on<sweep, compute_target::device>);

}  // namespace handoff::bench::extended_elementwise

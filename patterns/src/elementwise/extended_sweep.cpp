#include "handoff/patterns/elementwise/extended_sweep.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "handoff/patterns/profile_points.hpp"

namespace handoff::patterns::elementwise {

// Named, so that a unity build of this layer (the sanitizer presets) never joins these helpers
// with another file's.
namespace extended_sweep {
namespace {

// 2^24 rather than 2^26 keeps the whole sweep short. Every CPU/GPU crossing lay at or below 2^20,
// and gpu_resident came close to its floor from 2^22 on, so the larger sizes add time but no
// finding. (figures: docs/design/measured-along-the-way.md, "Why the extended sweep stops at 2^24")
constexpr std::size_t largest_elementwise_count = std::size_t{1} << 24;

constexpr extended_workload all_workloads[] = {
    extended_workload::square, extended_workload::neg_b_over_a, extended_workload::affine};

std::vector<named_figure> point_figures(const extended_point& at) {
  std::vector<named_figure> figures{{"elements", extended_elements(at)}};
  if (at.workload == extended_workload::affine) {
    const auto n = static_cast<double>(at.size);
    figures.push_back({"n", n});
    figures.push_back({"flops", 2.0 * n * n * n + n * n});
  }
  return figures;
}

// Powers of 4 from 2^10 to 2^24 within the element cap for square and neg_b_over_a; the orders
// 64, 256, 1000 (the seed's) and 2048 for affine, within the same cap on n * n. Smoke runs use
// 1027 elements and n = 37, sizes that divide by nothing the kernels like. The default profile
// keeps 2^10, 2^16, 2^20, and n = 64 and 1000.
std::vector<std::size_t> sizes(extended_workload workload, const sweep_settings& settings) {
  if (workload == extended_workload::affine) {
    if (auto chosen = chosen_values(settings, "n")) return *chosen;
    if (settings.smoke) return {37};
    std::vector<std::size_t> orders;
    for (const std::size_t n : {64, 256, 1000, 2048}) {
      if (n * n <= settings.max_elements) orders.push_back(n);
    }
    return profile_points<std::size_t>(settings, orders, {1000});
  }
  if (auto chosen = chosen_values(settings, "elements")) return *chosen;
  if (settings.smoke) return {1027};
  std::vector<std::size_t> counts;
  const std::size_t cap = std::min<std::uint64_t>(largest_elementwise_count, settings.max_elements);
  for (std::size_t count = 1 << 10; count <= cap; count *= 4)
    counts.push_back(count);
  return profile_points<std::size_t>(settings, counts,
                                     {std::size_t{1} << 16, std::size_t{1} << 20});
}

std::vector<extended_point> points(const sweep_settings& settings) {
  std::vector<extended_point> made;
  for (const auto workload : all_workloads) {
    for (const std::size_t size : sizes(workload, settings))
      made.push_back({.workload = workload, .size = size});
  }
  return made;
}

name_axes axes(const extended_point& at, compute_target, std::optional<start> how) {
  name_axes made{
      {"workload", std::string(workload_name(at.workload))},
      {at.workload == extended_workload::affine ? "n" : "elements", std::to_string(at.size)}};
  if (how) made.emplace_back("start", start_name(*how));
  return made;
}

int cold_samples(const sweep_settings& settings, const extended_point&) {
  return settings.smoke ? 2 : 3;
}

// Every row of the table at the points it runs at (cpu_map is capped, cpu_blas runs the GEMM
// only).
constexpr pattern_sweep<extended_point, extended_case> sweep{
    .points = points, .axes = axes, .cold_samples = cold_samples};

}  // namespace
}  // namespace extended_sweep

const pattern_benchmarks<extended_point, extended_case>& extended_benchmarks() {
  static const pattern_benchmarks<extended_point, extended_case> made{
      .spec = {.pattern = "elementwise",
               .table = extended_variants(),
               .make_case = make_extended_case,
               .traffic =
                   [](const extended_point& at) {
                     return std::pair{extended_bytes(at), extended_elements(at)};
                   },
               .figures = extended_sweep::point_figures},
      .settable_axes = {"n", "elements"},
      .families = {{.name = "extended/cpu",
                    .target = compute_target::host_stand_in,
                    .sweeps = {extended_sweep::sweep}},
                   {.name = "extended/gpu",
                    .min_gpus = 1,
                    .target = compute_target::device,
                    .sweeps = {extended_sweep::sweep}}}};
  return made;
}

}  // namespace handoff::patterns::elementwise

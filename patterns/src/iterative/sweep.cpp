#include "handoff/patterns/iterative/sweep.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "handoff/patterns/profile_points.hpp"

namespace handoff::patterns::iterative {

// Named, so that a unity build of this layer (the sanitizer presets) never joins these helpers
// with another file's.
namespace iterative_sweep {
namespace {

constexpr int jacobi_iterations = 100;

// The steps' device-memory bytes and the unknowns they update.
std::pair<double, double> traffic(const jacobi_point& at) {
  const double steps = at.iterations;
  return {steps * jacobi_step_bytes(at.unknowns), steps * static_cast<double>(at.unknowns)};
}

// 2^20 to 2^26 unknowns in powers of 4, within the element cap (a variant's row may stop below
// them: measured_at); a smoke run uses 1027, which is not a multiple of 4 and so covers the
// kernel's scalar tail.
std::vector<std::size_t> unknown_counts(const sweep_settings& settings) {
  if (auto chosen = chosen_values(settings, "unknowns")) return *chosen;
  if (settings.smoke) return {1027};
  std::vector<std::size_t> counts;
  for (std::size_t n = std::size_t{1} << 20; n <= std::size_t{1} << 26; n *= 4) {
    if (n > settings.max_elements) break;
    counts.push_back(n);
  }
  return profile_points<std::size_t>(settings, counts, {std::size_t{1} << 24});
}

std::vector<jacobi_point> points(const sweep_settings& settings) {
  std::vector<jacobi_point> made;
  for (const std::size_t unknowns : unknown_counts(settings))
    made.push_back({.unknowns = unknowns, .iterations = jacobi_iterations});
  return made;
}

name_axes axes(const jacobi_point& at, compute_target, std::optional<start>) {
  return {{"unknowns", std::to_string(at.unknowns)}, {"iterations", std::to_string(at.iterations)}};
}

constexpr pattern_sweep<jacobi_point, jacobi_case> sweep{.points = points, .axes = axes};

}  // namespace
}  // namespace iterative_sweep

const pattern_benchmarks<jacobi_point, jacobi_case>& iterative_benchmarks() {
  static const pattern_benchmarks<jacobi_point, jacobi_case> made{
      .spec = {.pattern = "iterative",
               .table = iterative_variants(),
               .make_case = make_jacobi_case,
               .traffic = iterative_sweep::traffic},
      .settable_axes = {"unknowns"},
      .families = {{.name = "cpu",
                    .target = compute_target::host_stand_in,
                    .sweeps = {iterative_sweep::sweep}},
                   {.name = "gpu",
                    .min_gpus = 1,
                    .target = compute_target::device,
                    .sweeps = {iterative_sweep::sweep}}}};
  return made;
}

}  // namespace handoff::patterns::iterative

// iterative/<variant>/unknowns:<n>/iterations:100: seed 001's example 3, a coordinator running a
// GPU solver whose every iteration feeds the next, here 100 Jacobi steps on the tridiagonal system
// of reference/jacobi.hpp. The variants, their sessions and floors are the pattern's table
// (patterns/iterative/variants.hpp); this file declares the sweep and the names
// (sweep_registrar.hpp registers every row of the table over them), and the driver measures them.
// Every run is verified against the double-precision oracle within
// reference::jacobi_relative_tolerance of max|x|, and the device variants' last update norm against
// the host's norm of the same two iterates.
//
// Counters beyond the harness's, the sessions' figures: seconds_per_iteration (one Jacobi step, so
// graph and device_loop compare directly at one size), update_norm and converged_at_iteration (the
// last check's norm and the host's verdict; 0: not converged in 100 steps, which at d = 2.125 is
// expected), checks, graph_nodes, l2_resident.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/profile_points.hpp"
#include "../harness/sweep_registrar.hpp"
#include "handoff/patterns/iterative/variants.hpp"

namespace handoff::bench::jacobi {
namespace {

using patterns::compute_target;
using patterns::iterative::jacobi_case;
using patterns::iterative::jacobi_point;

constexpr int jacobi_iterations = 100;

// The steps' device-memory bytes and the unknowns they update.
std::pair<double, double> traffic(const jacobi_point& at) {
  const double steps = at.iterations;
  return {steps * patterns::iterative::jacobi_step_bytes(at.unknowns),
          steps * static_cast<double>(at.unknowns)};
}

const pattern_spec<jacobi_point, jacobi_case>& spec() {
  static const pattern_spec<jacobi_point, jacobi_case> iterative{
      .pattern = "iterative",
      .table = patterns::iterative::iterative_variants(),
      .make_case = patterns::iterative::make_jacobi_case,
      .traffic = traffic,
      .figures = nullptr};
  return iterative;
}

// 2^20 to 2^26 unknowns in powers of 4, within --handoff-max-elements (a variant's row may stop
// below them: measured_at); a smoke run uses 1027, which is not a multiple of 4 and so covers the
// kernel's scalar tail.
std::vector<std::size_t> unknown_counts(const bench_config& config) {
  if (auto chosen = chosen_values(config, "unknowns")) return *chosen;
  if (config.smoke) return {1027};
  std::vector<std::size_t> counts;
  for (std::size_t n = std::size_t{1} << 20; n <= std::size_t{1} << 26; n *= 4) {
    if (n > config.max_elements) break;
    counts.push_back(n);
  }
  return profile_points<std::size_t>(config, counts, {std::size_t{1} << 24});
}

std::vector<jacobi_point> points(const bench_config& config) {
  std::vector<jacobi_point> made;
  for (const std::size_t unknowns : unknown_counts(config))
    made.push_back({.unknowns = unknowns, .iterations = jacobi_iterations});
  return made;
}

name_axes axes(const jacobi_point& at, compute_target, std::optional<start>) {
  return {{"unknowns", std::to_string(at.unknowns)}, {"iterations", std::to_string(at.iterations)}};
}

// Every row of the table, the CPU variants in the CPU family and the device ones in the GPU
// family, so a new variant has rows without a line here.
constexpr pattern_sweep<jacobi_point, jacobi_case> sweep{
    .spec = spec, .points = points, .axes = axes};

}  // namespace

HANDOFF_BENCHMARK_FAMILY("iterative/cpu", 0,
                         register_sweep_on<sweep, compute_target::host_stand_in>);
HANDOFF_BENCHMARK_FAMILY("iterative/gpu", 1, register_sweep_on<sweep, compute_target::device>);

}  // namespace handoff::bench::jacobi

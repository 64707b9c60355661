// iterative/<variant>/unknowns:<n>/iterations:100: seed 001's example 3, a coordinator running a
// GPU solver whose every iteration feeds the next, here 100 Jacobi steps on the tridiagonal system
// of reference/jacobi.hpp. The variants, their sessions and floors are the pattern's table
// (patterns/iterative/variants.hpp); this file is the sweep and the names, and the driver
// measures every row. Every run is verified against the double-precision oracle within
// reference::jacobi_relative_tolerance of max|x|, and the device variants' last update norm against
// the host's norm of the same two iterates.
//
// Counters beyond the harness's, the sessions' figures: seconds_per_iteration (one Jacobi step, so
// graph and device_loop compare directly at one size), update_norm and converged_at_iteration (the
// last check's norm and the host's verdict; 0: not converged in 100 steps, which at d = 2.125 is
// expected), checks, graph_nodes, l2_resident.

#include <string>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/profile_points.hpp"
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

// Every row of the table that runs on target (the CPU variants in the CPU family, the device
// ones in the GPU family), so a new variant has rows without a line here.
void register_variants(const bench_environment& environment, compute_target target) {
  // Size-major, so consecutive benchmarks share the cached case (inputs and answer) of one size.
  for (const std::size_t unknowns : unknown_counts(environment.config)) {
    for (const auto& row : spec().table) {
      const bool in_family = target == compute_target::device ? !row.targets.cpu : row.targets.cpu;
      const jacobi_point at{.unknowns = unknowns, .iterations = jacobi_iterations};
      if (!in_family || !patterns::is_measured_at(row, at)) continue;
      const auto name = benchmark_name("iterative", std::string(row.name),
                                       {{"unknowns", std::to_string(unknowns)},
                                        {"iterations", std::to_string(jacobi_iterations)}});
      register_variant(spec(), row, at, target, start::warm, name);
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

HANDOFF_BENCHMARK_FAMILY("iterative/cpu", 0, register_cpu_variants);
HANDOFF_BENCHMARK_FAMILY("iterative/gpu", 1, register_gpu_variants);

}  // namespace handoff::bench::jacobi

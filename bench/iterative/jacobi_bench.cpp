// iterative/<variant>/unknowns:<n>/iterations:100: seed 001's example 3, a coordinator running a
// GPU solver whose every iteration feeds the next, here 100 Jacobi steps on the tridiagonal system
// of reference/jacobi.hpp. The variants differ in where the state lives between the steps:
//   cpu_serial   one CPU thread, float (the CPU figure);
//   host_loop    on the host, shipped to the device and back for every step (pinned buffers);
//   device_loop  on the device, one launch per step, the host checking convergence every 10 steps;
//   graph        on the device, the 100 steps and 10 checks launched as one CUDA graph.
// Every run is verified against the double-precision oracle within reference::
// jacobi_relative_tolerance of max|x|, and the device variants' last update norm against the
// host's norm of the same two iterates.
//
// Counters beyond the harness's: seconds_per_iteration (one Jacobi step, so graph and device_loop
// compare directly at one size), update_norm and converged_at_iteration (the last check's norm and
// the host's verdict; 0: not converged in 100 steps, which at d = 2.125 is expected), checks,
// graph_nodes, l2_resident.
//
// Clocks: the device variants are timed with CUDA events on their stream; their host part (the
// checks' waits and comparisons) lies between the events, since the stop event is recorded only
// once enqueue() has returned. host_loop involves the host in every step, so it is timed by the
// wall clock, like the CPU variant.

#include <cuda_runtime_api.h>

#include <cmath>
#include <string>
#include <vector>

#include "../ceilings/ceiling_names.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/measure.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/stage_counters.hpp"
#include "../harness/traffic.hpp"
#include "handoff/patterns/iterative/jacobi_device_variants.hpp"
#include "handoff/patterns/iterative/jacobi_host_variants.hpp"
#include "handoff/reference/verify_relative.hpp"
#include "jacobi_data.hpp"

namespace handoff::bench {
namespace {

using namespace patterns::iterative;

patterns::iterative::jacobi_problem problem_of(const jacobi_data& data) {
  return {.b = data.b, .x0 = data.x0, .iterations = jacobi_iterations};
}

// Device-memory bytes. A step reads x and b and writes x_new, 12 bytes an unknown: the two
// neighbours of x[i] are the same cache lines, read once. A check's reduction reads x_k and
// x_(k-1), 8 bytes an unknown; but the checks are a variant's choice, not the solve's work, so no
// floor counts them. hbm_device_copy counts a copy's bytes read plus bytes written, so these bytes
// price at that ceiling directly.
double step_bytes(std::size_t unknowns) {
  return 12.0 * static_cast<double>(unknowns);
}
double state_bytes(std::size_t unknowns) {
  return 4.0 * static_cast<double>(unknowns);
}

void finish(benchmark::State& state, const jacobi_data& data, std::span<const float> result,
            double measured_seconds) {
  const double steps = jacobi_iterations;
  set_traffic(state, steps * step_bytes(data.unknowns), steps * static_cast<double>(data.unknowns));
  const auto runs = static_cast<double>(state.iterations());
  state.counters["seconds_per_iteration"] = runs > 0 ? measured_seconds / (runs * steps) : 0.0;
  record_verification(state, reference::verify_within_relative(
                                 data.expected, result, reference::jacobi_relative_tolerance));
}

// The device's norm of the last check against the host's norm of the same two iterates.
template <class Variant>
void verify_last_norm(benchmark::State& state, const Variant& variant) {
  const auto& log = variant.convergence();
  const double host = reference::update_norm_squared(variant.result(), variant.previous_iterate());
  const double device = log.last_norm() * log.last_norm();
  state.counters["update_norm"] = log.last_norm();
  state.counters["converged_at_iteration"] = log.converged_at;
  state.counters["checks"] = static_cast<double>(log.checked_at.size());
  const auto check = reference::verify_reduction(host, device);
  if (!check.passed()) {
    state.counters["wrong"] += 1;
    fail_benchmark(state,
                   "the device's update norm disagrees with the host's: " + check.describe());
  }
}

// No ceiling of the suite bounds a one-thread stencil whose data may sit in
// cache, so, like elementwise's CPU variants, it has no floor.
void cpu_serial(benchmark::State& state, std::size_t unknowns) {
  const auto& data = jacobi_data_for(unknowns);
  jacobi_cpu_serial variant(problem_of(data));
  const double seconds = measure_wall_region(
      state, [&] { variant.poison_output(); }, [&] { variant.run(); }, [] {});
  finish(state, data, variant.result(), seconds);
}

// The floors. A step's 12 bytes an unknown go through device memory only when b, x and x_new do
// not fit in the L2 cache together: below that (2^20 unknowns, and 2^22 on a 50 MiB or larger L2)
// they stay in L2 from one step to the next, run faster than hbm_device_copy, and no ceiling of the
// suite prices them, so the floor leaves them out rather than claim a bound that does not hold.
// The counter l2_resident says which case a row is.
bool steps_fit_in_l2(benchmark::State& state, std::size_t unknowns) {
  int device = 0;
  int l2_bytes = 0;
  HANDOFF_CUDA_CHECK(cudaGetDevice(&device));
  HANDOFF_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
  const bool fits = step_bytes(unknowns) <= static_cast<double>(l2_bytes);
  state.counters["l2_resident"] = fits ? 1 : 0;
  return fits;
}

void add_step_bytes_floor(benchmark::State& state, std::size_t unknowns) {
  if (!steps_fit_in_l2(state, unknowns)) {
    add_floor_bytes(state, ceiling::device_copy, jacobi_iterations * step_bytes(unknowns));
  }
}

// Every step is a round trip, one stage after the other: the state over PCIe both ways (pinned)
// and the step's bytes through device memory. The launch is enqueued while the upload runs, so it
// adds nothing; the host's turn-around between steps shows as the wait stage.
void host_loop(benchmark::State& state, std::size_t unknowns) {
  const auto& data = jacobi_data_for(unknowns);
  jacobi_host_loop variant(problem_of(data));
  patterns::stage_times stages;
  const double seconds = measure_wall_region(
      state, [&] { variant.poison_output(); }, [&] { variant.run(); },
      [&] { stages += variant.last_run_stages(); });
  finish(state, data, variant.result(), seconds);
  set_stage_counters(state, stages, seconds);
  const double steps = jacobi_iterations;
  add_floor_bytes(state, ceiling::h2d_pinned, steps * state_bytes(unknowns));
  add_floor_bytes(state, ceiling::d2h_pinned, steps * state_bytes(unknowns));
  add_step_bytes_floor(state, unknowns);
}

// Times a device variant with events over the solve's bytes, verifies its result and its last
// norm, and lets the variant add what is its own (launch events, counters).
template <class Variant, class OwnFloor>
void run_device_variant(benchmark::State& state, std::size_t unknowns, OwnFloor&& own_floor) {
  const auto& data = jacobi_data_for(unknowns);
  Variant variant(problem_of(data));
  patterns::stage_times stages;
  const double seconds = measure_gpu_region(
      state, variant.stream(), [&] { variant.poison_output(); }, [&] { variant.enqueue(); },
      [&] { stages += variant.last_run_stages(); });
  finish(state, data, variant.result(), seconds);
  verify_last_norm(state, variant);
  set_stage_counters(state, stages, seconds);
  add_step_bytes_floor(state, unknowns);
  own_floor(variant);
}

// The floor is the Jacobi solve's own work, 100 steps; the convergence checks (their reductions,
// copies and waits) are this variant's overhead above it. The host must issue 100 launches, but
// they overlap the steps already running (measured on an H100: 100 launches plus the bytes exceed
// the run at 2^26), so the floor is the slower of the two, not their sum.
void device_loop(benchmark::State& state, std::size_t unknowns) {
  run_device_variant<jacobi_device_loop>(state, unknowns, [&](const jacobi_device_loop&) {
    add_floor_events(state, ceiling::launch_async, jacobi_iterations);
    set_floor_overlapped(state);
  });
}

// The same solve's bytes, after one launch that the host waits for (launch_sync: the host needs
// the norms). The graph's 121 nodes are not priced: pricing each at kernel_launch_async, which
// measures the CPU's launch path that a graph skips, exceeds the measured run (on an H100 at 2^20,
// 3.4 us a step for the whole graph against 3.9 us a launch). A graph-node ceiling would price
// them.
void graph(benchmark::State& state, std::size_t unknowns) {
  run_device_variant<jacobi_graph>(state, unknowns, [&](const jacobi_graph& variant) {
    state.counters["graph_nodes"] = static_cast<double>(variant.graph_nodes());
    add_floor_events(state, ceiling::launch_sync, 1);
  });
}

// 2^20 to 2^26 unknowns in powers of 4, within --handoff-max-elements and a variant's own cap; a
// smoke run uses 1027, which is not a multiple of 4 and so covers the kernel's scalar tail.
std::vector<std::size_t> unknown_counts(const bench_config& config, std::size_t cap) {
  if (config.smoke) return {1027};
  std::vector<std::size_t> counts;
  for (std::size_t n = std::size_t{1} << 20; n <= std::size_t{1} << 26; n *= 4) {
    if (n > cap || n > config.max_elements) break;
    counts.push_back(n);
  }
  return counts;
}

// The CPU variant is slow (2^22 unknowns x 100 steps is a quarter to half a second a run), so it
// stops there.
constexpr std::size_t cpu_serial_cap = std::size_t{1} << 22;
// host_loop moves 2 x 4 bytes an unknown over PCIe every step: at 2^26 a run is 100 x 512 MiB,
// about a second, and the benchmark would need two or more of them; 2^24 already shows the trend.
constexpr std::size_t host_loop_cap = std::size_t{1} << 24;
constexpr std::size_t no_cap = std::size_t{1} << 26;

using variant_body = void (*)(benchmark::State&, std::size_t);

struct variant_entry {
  const char* name;
  variant_body body;
  std::size_t cap;
};

void register_variants(const bench_environment& environment,
                       const std::vector<variant_entry>& variants) {
  // Size-major, so consecutive benchmarks share the cached inputs and answer of one size.
  for (const std::size_t unknowns : unknown_counts(environment.config, no_cap)) {
    for (const auto& [variant, body, cap] : variants) {
      if (unknowns > cap) continue;
      const auto name = benchmark_name("iterative", variant,
                                       {{"unknowns", std::to_string(unknowns)},
                                        {"iterations", std::to_string(jacobi_iterations)}});
      register_benchmark(name,
                         [body, unknowns](benchmark::State& state) { body(state, unknowns); });
    }
  }
}

void register_cpu_variants(const bench_environment& environment) {
  register_variants(environment, {{"cpu_serial", cpu_serial, cpu_serial_cap}});
}

void register_gpu_variants(const bench_environment& environment) {
  register_variants(environment, {{"host_loop", host_loop, host_loop_cap},
                                  {"device_loop", device_loop, no_cap},
                                  {"graph", graph, no_cap}});
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("iterative/cpu", 0, register_cpu_variants);
HANDOFF_BENCHMARK_FAMILY("iterative/gpu", 1, register_gpu_variants);

}  // namespace handoff::bench

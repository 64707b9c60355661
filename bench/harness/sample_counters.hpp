#pragma once
// How a row's figure was obtained, as counters beside it in the results: samples, noise (the
// relative half-width of the median's 95% interval) and the interval itself in seconds, the
// quickest sample (what a ceiling is priced from),
// target and whether the row stopped at its time cap above it (noisy), whether its count was
// fixed, its clock, its warm-up runs, the GPU clocks seen while it sampled, the context switches of
// its processes per run (context_switches.hpp), and a planted slowdown when one was asked for.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <optional>

#include "context_switches.hpp"
#include "gpu_clocks.hpp"
#include "sampling.hpp"

namespace handoff::bench {

enum class sample_clock { cuda_events = 0, wall = 1, self = 2 };

struct sample_report {
  sample_clock clock = sample_clock::wall;
  bool fixed = false;
  double target = 0.0;
  std::size_t samples = 0;
  int warmup_runs = 0;
  median_interval interval;
  bool noisy = false;
  std::optional<gpu_clock_reading> clocks;
  double planted = 0.0;
  std::optional<double> planted_actual;  // where it was measured
  std::optional<int> pinned_core;        // the core the row's thread was held on (core_pin.hpp)
  std::optional<switches_while_running::per_run_switches> switches;  // where /proc was read
};

void set_sample_counters(benchmark::UserCounters& counters, const sample_report& report);
inline void set_sample_counters(benchmark::State& state, const sample_report& report) {
  set_sample_counters(state.counters, report);
}

}  // namespace handoff::bench

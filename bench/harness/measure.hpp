#pragma once
// The one timing loop, with three clocks. GPU-only regions are timed with CUDA events on the
// variant's stream; regions that involve host work with the wall clock; a hand-off that spans
// processes by the variant's own clock (its body returns the seconds). All report through manual
// time, poison the outputs before every timed run (outside the timing) and call after_run() after
// it (outside the timing, to collect what the run reported about itself). Each returns the
// seconds of all the timed runs together. The variant driver (driver.hpp) and the ceilings use it.

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include "handoff/stream.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::bench {

inline constexpr auto nothing_after_run = [] {};
using nothing_after_run_type = decltype(nothing_after_run);

// One untimed run first, so that first-touch page faults, lazy module loading and cold caches
// stay out of the figures. time_one(body) runs body once and returns its seconds.
template <class TimeOne, class Poison, class Body, class AfterRun>
double measure_region(benchmark::State& state, TimeOne&& time_one, Poison&& poison, Body&& body,
                      AfterRun&& after_run) {
  poison();
  time_one(body);
  double total_seconds = 0.0;
  for (auto _ : state) {
    poison();
    const double seconds = time_one(body);
    state.SetIterationTime(seconds);
    total_seconds += seconds;
    after_run();
  }
  return total_seconds;
}

template <class Poison, class Body, class AfterRun = nothing_after_run_type>
double measure_gpu_region(benchmark::State& state, cudaStream_t stream, Poison&& poison,
                          Body&& body, AfterRun&& after_run = {}) {
  const event start;
  const event stop;
  const auto time_with_events = [&](auto& run) {
    start.record(stream);
    run();
    stop.record(stream);
    return elapsed_milliseconds(start, stop) * 1e-3;
  };
  return measure_region(state, time_with_events, poison, body, after_run);
}

template <class Poison, class Body, class AfterRun = nothing_after_run_type>
double measure_wall_region(benchmark::State& state, Poison&& poison, Body&& body,
                           AfterRun&& after_run = {}) {
  const auto time_with_wall_clock = [](auto& run) {
    const auto start = wall_clock::now();
    run();
    return seconds_since(start);
  };
  return measure_region(state, time_with_wall_clock, poison, body, after_run);
}

// body() returns the seconds it measured itself.
template <class Poison, class Body, class AfterRun = nothing_after_run_type>
double measure_self_timed_region(benchmark::State& state, Poison&& poison, Body&& body,
                                 AfterRun&& after_run = {}) {
  const auto as_reported = [](auto& run) { return static_cast<double>(run()); };
  return measure_region(state, as_reported, poison, body, after_run);
}

}  // namespace handoff::bench

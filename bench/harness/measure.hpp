#pragma once
// The two clocks. GPU-only regions are timed with CUDA events on the variant's stream; regions
// that involve host work are timed by the wall clock. Both report through manual time, and both
// poison the outputs before every timed run, outside the timed region. Both return the seconds of
// all the timed runs together (for stage counters' wait, say), and call after_run() after each
// timed run, outside the timing (to collect what the run reported about itself).

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <chrono>

#include "handoff/stream.hpp"

namespace handoff::bench {

inline constexpr auto nothing_after_run = [] {};
using nothing_after_run_type = decltype(nothing_after_run);

// One untimed run first, so that first-touch page faults, lazy module loading and cold caches
// stay out of the figures.
template <class Poison, class Body, class AfterRun = nothing_after_run_type>
double measure_gpu_region(benchmark::State& state, cudaStream_t stream, Poison&& poison,
                          Body&& body, AfterRun&& after_run = {}) {
  const event start;
  const event stop;
  poison();
  body();
  HANDOFF_CUDA_CHECK(cudaStreamSynchronize(stream));
  double total_seconds = 0.0;
  for (auto _ : state) {
    poison();
    start.record(stream);
    body();
    stop.record(stream);
    const double seconds = elapsed_milliseconds(start, stop) * 1e-3;
    state.SetIterationTime(seconds);
    total_seconds += seconds;
    after_run();
  }
  return total_seconds;
}

template <class Poison, class Body, class AfterRun = nothing_after_run_type>
double measure_wall_region(benchmark::State& state, Poison&& poison, Body&& body,
                           AfterRun&& after_run = {}) {
  poison();
  body();
  double total_seconds = 0.0;
  for (auto _ : state) {
    poison();
    const auto start = std::chrono::steady_clock::now();
    body();
    const auto stop = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(stop - start).count();
    state.SetIterationTime(seconds);
    total_seconds += seconds;
    after_run();
  }
  return total_seconds;
}

}  // namespace handoff::bench

#pragma once
// The two clocks. GPU-only regions are timed with CUDA events on the variant's stream; regions
// that involve host work are timed by the wall clock. Both report through manual time, and both
// poison the outputs before every timed run, outside the timed region.

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <chrono>

#include "handoff/stream.hpp"

namespace handoff::bench {

// One untimed run first, so that first-touch page faults, lazy module loading and cold caches
// stay out of the figures.
template <class Poison, class Body>
void measure_gpu_region(benchmark::State& state, cudaStream_t stream, Poison&& poison,
                        Body&& body) {
  const event start;
  const event stop;
  poison();
  body();
  HANDOFF_CUDA_CHECK(cudaStreamSynchronize(stream));
  for (auto _ : state) {
    poison();
    start.record(stream);
    body();
    stop.record(stream);
    state.SetIterationTime(elapsed_milliseconds(start, stop) * 1e-3);
  }
}

template <class Poison, class Body>
void measure_wall_region(benchmark::State& state, Poison&& poison, Body&& body) {
  poison();
  body();
  for (auto _ : state) {
    poison();
    const auto start = std::chrono::steady_clock::now();
    body();
    const auto stop = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(stop - start).count());
  }
}

}  // namespace handoff::bench

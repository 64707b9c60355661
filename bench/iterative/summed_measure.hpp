#pragma once
// harness/measure.hpp's two clocks, unchanged (an untimed warm-up run, poison before every run),
// but returning the seconds of all the timed runs together and calling after_run() after each of
// them: the iterative benchmarks need that sum for the stage counters' wait and for seconds per
// Jacobi iteration, and add up the stages each run reports. (measure.hpp could return the sum
// itself; this stays here so as not to change a shared file.)

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <chrono>

#include "handoff/stream.hpp"

namespace handoff::bench {

template <class Poison, class Body, class AfterRun>
double measure_gpu_runs(benchmark::State& state, cudaStream_t stream, Poison&& poison, Body&& body,
                        AfterRun&& after_run) {
  const event start;
  const event stop;
  poison();
  body();
  HANDOFF_CUDA_CHECK(cudaStreamSynchronize(stream));
  double total = 0.0;
  for (auto _ : state) {
    poison();
    start.record(stream);
    body();
    stop.record(stream);
    const double seconds = elapsed_milliseconds(start, stop) * 1e-3;
    state.SetIterationTime(seconds);
    total += seconds;
    after_run();
  }
  return total;
}

template <class Poison, class Body, class AfterRun>
double measure_wall_runs(benchmark::State& state, Poison&& poison, Body&& body,
                         AfterRun&& after_run) {
  poison();
  body();
  double total = 0.0;
  for (auto _ : state) {
    poison();
    const auto start = std::chrono::steady_clock::now();
    body();
    const auto stop = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(stop - start).count();
    state.SetIterationTime(seconds);
    total += seconds;
    after_run();
  }
  return total;
}

}  // namespace handoff::bench

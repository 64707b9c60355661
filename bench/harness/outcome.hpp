#pragma once
// The one shared verification step, and the failure count that sets handoff_bench's exit code.

#include <benchmark/benchmark.h>

#include <exception>
#include <string>

#include "handoff/reference/verify.hpp"

namespace handoff::bench {

// Marks the benchmark failed (SkipWithError) and counts it against the exit code.
void fail_benchmark(benchmark::State& state, const std::string& message);
int failed_benchmark_count() noexcept;
// A failure found between benchmarks (a cached pool whose workers did not exit cleanly when it was
// retired): printed, and counted against the exit code like a failed benchmark.
void record_failure_between_benchmarks(const std::string& message);

// Adds the `wrong` and `verified` counters; any mismatch fails the benchmark.
void record_verification(benchmark::State& state, const reference::verification_result& result);

// Runs a benchmark body; any exception (a CUDA error, a dead worker) fails the benchmark with the
// exception's message instead of ending the whole run.
template <class Body>
void run_guarded(benchmark::State& state, Body&& body) {
  try {
    body();
  } catch (const std::exception& error) {
    fail_benchmark(state, error.what());
  }
}

}  // namespace handoff::bench

#include "outcome.hpp"

#include <atomic>
#include <iostream>

#include "interruption.hpp"

namespace handoff::bench {
namespace {

std::atomic<int> failures{0};

}  // namespace

void fail_benchmark(benchmark::State& state, const std::string& message) {
  // A worker killed by the user's Ctrl-C is the interruption, not a failure of the variant.
  if (!run_interrupted()) failures.fetch_add(1);
  state.SkipWithError(message.c_str());
}

void record_failure_between_benchmarks(const std::string& message) {
  if (run_interrupted()) return;
  failures.fetch_add(1);
  std::cerr << "handoff_bench: " << message << "\n";
}

int failed_benchmark_count() noexcept {
  return failures.load();
}

void record_verification(benchmark::State& state, const reference::verification_result& result) {
  state.counters["wrong"] = static_cast<double>(result.mismatches);
  state.counters["verified"] = static_cast<double>(result.checked);
  if (!result.passed()) fail_benchmark(state, "verification failed: " + result.describe());
}

}  // namespace handoff::bench

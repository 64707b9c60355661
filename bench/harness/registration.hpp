#pragma once
// Registers one benchmark with the suite's conventions: manual time (events or wall clock, chosen
// by the body), the configured minimum time, and every exception turned into a counted failure.

#include <benchmark/benchmark.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bench_config.hpp"

namespace handoff::bench {

using benchmark_body = std::function<void(benchmark::State&)>;

benchmark::internal::Benchmark* register_benchmark(const std::string& name, benchmark_body body);

// "elementwise/gpu_resident/workload:vector_add/elements:1024": <pattern>/<variant>/<axis>:<value>.
std::string benchmark_name(const std::string& pattern, const std::string& variant,
                           const std::vector<std::pair<std::string, std::string>>& axes);

}  // namespace handoff::bench

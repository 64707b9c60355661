#pragma once
// Registers one benchmark with the suite's conventions: manual time (events or wall clock, chosen
// by the body), one Google Benchmark iteration in which the driver samples to its noise target,
// and every exception turned into a counted failure. Each row is noted with the family that
// registered it, for the progress lines, and as it starts it becomes the current row: moving to
// another family first retires what the previous family kept (its worker pools, its buffers), so
// that nothing of one family lingers into another's measurement.

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

// The family whose benchmarks are being registered now (family_registry sets it around each
// family's registration); rows registered outside any family belong to "other".
void set_registering_family(std::string family);

struct registered_row {
  std::string name;  // as registered, without Google Benchmark's suffixes
  std::string family;
};
const std::vector<registered_row>& registered_rows() noexcept;

// The row being measured now, and its family; empty between rows.
const std::string& current_row_name() noexcept;
const std::string& current_row_family() noexcept;

// Called when the run moves from one family's rows to another's, before the new row starts.
void on_family_change(std::function<void()> retire);

}  // namespace handoff::bench

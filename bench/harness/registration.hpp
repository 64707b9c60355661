#pragma once
// Registers one benchmark with the suite's conventions: manual time (events or wall clock, chosen
// by the body), one Google Benchmark iteration in which the driver samples to its noise target,
// and every exception turned into a counted failure. Each row is noted with the family that
// registered it, for the progress lines, and is handed, as it starts, the run's settings its
// family was registered with and its own name: the timing loop reads no process-wide state.
// Moving to another family first retires what the previous family kept (its worker pools, its
// buffers), so that nothing of one family lingers into another's measurement.

#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench_config.hpp"

namespace handoff::bench {

// What a row is measured with, handed to its body as it starts.
struct row_context {
  const bench_config& config;
  const std::string& name;  // as registered, without Google Benchmark's suffixes
  int pass = 1;             // of the run's passes (--handoff-passes), from 1
};

using benchmark_body = std::function<void(benchmark::State&, const row_context&)>;

// Whether the command line names --benchmark_time_unit. Rows are shown in microseconds unless it
// does: call before benchmark::Initialize, which takes the flag away (and, without it, sets
// nanoseconds), and set the unit after.
bool time_unit_chosen(int argc, char** argv);

benchmark::internal::Benchmark* register_benchmark(const std::string& name, benchmark_body body);

// "elementwise/gpu_resident/workload:vector_add/elements:1024": <pattern>/<variant>/<axis>:<value>.
std::string benchmark_name(const std::string& pattern, const std::string& variant,
                           const std::vector<std::pair<std::string, std::string>>& axes);

// The family whose benchmarks are being registered now, and the run's settings they will be
// measured with (family_registry sets both around each family's registration); rows registered
// outside any family belong to "other" and are measured with the default settings.
void set_registering_family(std::string family, const bench_config& config);
void set_registering_family(std::string family);

struct registered_row {
  std::string name;  // as registered, without Google Benchmark's suffixes
  std::string family;
};
const std::vector<registered_row>& registered_rows() noexcept;

// Called when the run moves from one family's rows to another's, before the new row starts.
void on_family_change(std::function<void()> retire);

}  // namespace handoff::bench

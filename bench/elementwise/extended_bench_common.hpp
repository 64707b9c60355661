#pragma once
// What the CPU and GPU halves of elementwise/extended share: the sizes, the names, the traffic
// counters and the verification of one benchmark.
//
// Names: elementwise/<variant>/workload:<square|neg_b_over_a>/elements:<count> and
// elementwise/<variant>/workload:affine/n:<order>, with /start:<cold|warm> for cpu_map. Every
// variant runs at the same sizes per workload (cpu_map only up to its cap), so a report can find,
// per workload, the smallest size at which a GPU variant beats the best CPU variant. The counters
// it needs: elements (output values), items (= elements), bytes (inputs + output), and for affine
// n and flops (2 n^3 + n^2).

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "../harness/bench_config.hpp"
#include "extended_inputs.hpp"
#include "handoff/patterns/elementwise/extended_problem.hpp"
#include "handoff/patterns/stage_times.hpp"

namespace handoff::bench {

using patterns::elementwise::extended_workload;

inline constexpr extended_workload all_extended_workloads[] = {
    extended_workload::square, extended_workload::neg_b_over_a, extended_workload::affine};

// Powers of 4 from 2^10 to 2^24 within --handoff-max-elements for square and neg_b_over_a; the
// orders 64, 256, 1000 (the seed's) and 2048 for affine, within the same cap on n * n. Smoke runs
// use 1027 elements and n = 37, sizes that divide by nothing the kernels like.
std::vector<std::size_t> extended_sizes(extended_workload workload, const bench_config& config);

// cpu_map dispatches every item as two messages: it is capped at 2^14 elements and n = 256.
bool within_map_cap(extended_workload workload, std::size_t size);

std::string extended_benchmark_name(const std::string& variant, extended_workload workload,
                                    std::size_t size, const char* start = nullptr);

// bytes, items, elements (and n, flops for affine), then the verification of the result.
void finish_extended(benchmark::State& state, const extended_data& data,
                     std::span<const float> result);

// Calls body and adds its wall time to seconds for every call but the first, which
// measure_*_region makes as its untimed warm-up. The sum is what the benchmark measured, within
// the two clock reads.
class timed_calls {
 public:
  template <class Body>
  void operator()(Body&& body) {
    const bool timed = calls_++ > 0;
    const auto start = std::chrono::steady_clock::now();
    body();
    if (timed) {
      seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  }
  bool timed_call() const noexcept { return calls_ > 1; }  // the latest call was timed
  double seconds() const noexcept { return seconds_; }

 private:
  std::size_t calls_ = 0;
  double seconds_ = 0;
};

}  // namespace handoff::bench

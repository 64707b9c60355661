// elementwise/<variant>/workload:vector_add/elements:<n>: seed 000's vector add, from one CPU
// thread up to data resident on the GPU. Each variant's floor comes from the stages its data
// must cross, priced by the ceilings of the same run.

#include <cstdint>
#include <string>
#include <vector>

#include "../ceilings/ceiling_names.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/measure.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/traffic.hpp"
#include "handoff/patterns/elementwise/vector_add_variants.hpp"
#include "vector_add_inputs.hpp"

namespace handoff::bench {
namespace {

using namespace patterns::elementwise;

struct stage_bytes {
  double inputs;  // a and b
  double output;
  double through_device_memory() const { return inputs + output; }
};

stage_bytes bytes_for(std::size_t count) {
  const double element = sizeof(float);
  return {2.0 * element * static_cast<double>(count), element * static_cast<double>(count)};
}

void finish(benchmark::State& state, const vector_add_data& data, std::span<const float> result) {
  const auto bytes = bytes_for(data.count);
  set_traffic(state, bytes.through_device_memory(), static_cast<double>(data.count));
  record_verification(state, reference::verify_elementwise(data.expected, result));
}

// Returns the variant, so a caller can report what it learned from the timed runs.
template <class Variant>
Variant run_cpu_variant(benchmark::State& state, std::size_t count) {
  const auto& data = vector_add_data_for(count);
  Variant variant({data.a, data.b});
  measure_wall_region(
      state, [&] { variant.poison_output(); }, [&] { variant.run(); });
  finish(state, data, variant.result());
  return variant;
}

template <class Variant>
void run_gpu_variant(benchmark::State& state, std::size_t count) {
  const auto& data = vector_add_data_for(count);
  Variant variant({data.a, data.b});
  measure_gpu_region(
      state, variant.stream(), [&] { variant.poison_output(); }, [&] { variant.enqueue(); });
  finish(state, data, variant.result());
}

// The CPU variants have no floor: none of the suite's ceilings bounds them. The one-thread memcpy
// ceiling measures a copy into shared memory with non-temporal stores, not a loop with two input
// streams whose data may sit in cache, and nothing bounds several threads.
void cpu_serial(benchmark::State& state, std::size_t count) {
  run_cpu_variant<vector_add_cpu_serial>(state, count);
}

void cpu_threads(benchmark::State& state, std::size_t count) {
  const auto variant = run_cpu_variant<vector_add_cpu_threads>(state, count);
  state.counters["worker_threads"] = variant.threads_used();
}

void add_transfer_floor(benchmark::State& state, std::size_t count, const char* upload,
                        const char* download) {
  const auto bytes = bytes_for(count);
  add_floor_bytes(state, upload, bytes.inputs);
  add_floor_bytes(state, ceiling::device_copy, bytes.through_device_memory());
  add_floor_bytes(state, download, bytes.output);
  add_floor_events(state, ceiling::launch_async, 1);
}

void gpu_transfers(benchmark::State& state, std::size_t count) {
  run_gpu_variant<vector_add_gpu_transfers>(state, count);
  add_transfer_floor(state, count, ceiling::h2d_pageable, ceiling::d2h_pageable);
}

void gpu_transfers_pinned(benchmark::State& state, std::size_t count) {
  run_gpu_variant<vector_add_gpu_transfers_pinned>(state, count);
  add_transfer_floor(state, count, ceiling::h2d_pinned, ceiling::d2h_pinned);
}

void gpu_resident(benchmark::State& state, std::size_t count) {
  run_gpu_variant<vector_add_gpu_resident>(state, count);
  add_floor_bytes(state, ceiling::device_copy, bytes_for(count).through_device_memory());
  add_floor_events(state, ceiling::launch_async, 1);
}

// Powers of 4 from 2^10 to the cap, plus 10M, the size seed 000 uses and the reference figures
// quote. A smoke run uses one size that is not a multiple of 4, to cover the kernel's tail.
std::vector<std::size_t> element_counts(const bench_config& config) {
  if (config.smoke) return {1027};
  std::vector<std::size_t> counts;
  for (std::uint64_t count = 1 << 10; count <= config.max_elements; count *= 4) {
    counts.push_back(count);
    if (count > config.max_elements / 4) break;  // the next step would pass the cap or overflow
  }
  constexpr std::size_t seed_size = 10'000'000;
  if (seed_size <= config.max_elements) counts.push_back(seed_size);
  return counts;
}

using variant_body = void (*)(benchmark::State&, std::size_t);

void register_variants(const bench_environment& environment,
                       const std::vector<std::pair<const char*, variant_body>>& variants) {
  // Size-major, so consecutive benchmarks share the cached inputs of one size.
  for (const std::size_t count : element_counts(environment.config)) {
    for (const auto& [variant, body] : variants) {
      const auto name =
          benchmark_name("elementwise", variant,
                         {{"workload", "vector_add"}, {"elements", std::to_string(count)}});
      register_benchmark(name, [body, count](benchmark::State& state) { body(state, count); });
    }
  }
}

void register_cpu_variants(const bench_environment& environment) {
  register_variants(environment, {{"cpu_serial", cpu_serial}, {"cpu_threads", cpu_threads}});
}

void register_gpu_variants(const bench_environment& environment) {
  register_variants(environment, {{"gpu_transfers", gpu_transfers},
                                  {"gpu_transfers_pinned", gpu_transfers_pinned},
                                  {"gpu_resident", gpu_resident}});
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("elementwise/vector_add/cpu", 0, register_cpu_variants);
HANDOFF_BENCHMARK_FAMILY("elementwise/vector_add/gpu", 1, register_gpu_variants);

}  // namespace handoff::bench

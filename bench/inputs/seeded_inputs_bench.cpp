// inputs/seeded_nonzero/threads:1/elements:<n>: the seeded input generator on one thread, the
// preparation every pattern's inputs and pool_prep's workers pay. items_per_second is values per
// second per core. No ceiling bounds it, so the row has no floor; pool_prep's floors use their
// own measurement of a chunk's preparation (chunk_prep_seconds).

#include "seeded_inputs_bench.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "../harness/family_registry.hpp"
#include "../harness/measure.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/traffic.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/verify.hpp"

namespace handoff::bench::seeded_inputs {
namespace {

constexpr std::uint64_t seed = 0x5EED;

// The stream starts half the row before index 2^32, so every row also checks that the fill
// changes key where the index's high half changes.
std::uint64_t first_index_of(std::size_t count) {
  return (std::uint64_t{1} << 32) - count / 2;
}

void seeded_nonzero(benchmark::State& state, const row_context& context, std::size_t count) {
  const std::uint64_t first = first_index_of(count);
  std::vector<float> expected(count), values(count);
  for (std::size_t i = 0; i < count; ++i)
    expected[i] = reference::seeded_nonzero_value(seed, first + i);
  measure_wall_region(
      state, context, [&] { reference::poison(values); },
      [&] { reference::fill_seeded_nonzero(values, seed, first); }, nothing_after_run,
      {.on_one_core = true});
  set_traffic(state, static_cast<double>(count * sizeof(float)), static_cast<double>(count));
  // Bit for bit: the bulk fill must write the scalar definition's values.
  record_verification(state, reference::verify_elementwise(expected, values, 0));
}

// In cache (2^16), pool_prep's default chunk per array (2^20), and through memory (2^24). A smoke
// run: an odd size, so the fill's scalar tail runs too.
std::vector<std::size_t> counts(const bench_config& config) {
  if (config.smoke) return {1027};
  std::vector<std::size_t> kept;
  for (const std::size_t count : {std::size_t{1} << 16, std::size_t{1} << 20, std::size_t{1} << 24})
    if (count <= config.max_elements) kept.push_back(count);
  return kept;
}

void register_seeded_nonzero(const bench_environment& environment) {
  for (const std::size_t count : counts(environment.config)) {
    register_benchmark(benchmark_name("inputs", "seeded_nonzero",
                                      {{"threads", "1"}, {"elements", std::to_string(count)}}),
                       [=](benchmark::State& state, const row_context& context) {
                         seeded_nonzero(state, context, count);
                       });
  }
}

}  // namespace

benchmark_family seeded_inputs_family() {
  return {.name = "inputs/seeded_nonzero",
          .min_gpus = 0,
          .register_benchmarks = register_seeded_nonzero};
}

}  // namespace handoff::bench::seeded_inputs

// One thread's memcpy into POSIX shared memory: the bound on any handoff that stages data through
// a shared segment on the CPU side.

#include <chrono>
#include <cstring>
#include <vector>

#include "../harness/family_registry.hpp"
#include "../harness/measure.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/traffic.hpp"
#include "ceiling_sizes.hpp"
#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/transport/shared_memory_segment.hpp"

namespace handoff::bench {
namespace {

void shm_memcpy(benchmark::State& state, std::size_t bytes) {
  std::vector<float> source(bytes / sizeof(float));
  reference::fill_seeded_nonzero(source, 0x5E6);
  auto segment = transport::shared_memory_segment::create_private(bytes, "ceiling");
  const auto destination = segment.bytes();
  measure_wall_region(
      state, [&] { std::memset(destination.data(), reference::poison_byte, bytes); },
      [&] { std::memcpy(destination.data(), source.data(), bytes); });
  set_traffic(state, static_cast<double>(bytes), static_cast<double>(source.size()));
  record_verification(state,
                      reference::verify_bytes(std::as_bytes(std::span(source)), destination));
}

void register_shm_memcpy_ceiling(const bench_environment& environment) {
  for (const std::size_t bytes : host_channel_sweep_bytes(environment.config)) {
    register_benchmark(
        benchmark_name("ceilings", ceiling::shm_memcpy, {{"bytes", std::to_string(bytes)}}),
        [=](benchmark::State& state) { shm_memcpy(state, bytes); });
  }
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("ceilings/shm_memcpy", 0, register_shm_memcpy_ceiling);

}  // namespace handoff::bench

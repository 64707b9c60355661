// One thread's copy into POSIX shared memory: the bound on any handoff that stages data through a
// shared segment on the CPU side.
//
// Two ways to copy, each its own row, and the ceiling is the faster at each size (ceilings_from
// keeps the best rate a size reached by any method): the C library's memcpy, and the streaming
// copy (transport/streaming_copy.hpp) that the slot producers fill their rings with. Through
// memory that copy ran faster than glibc's memcpy (far faster at 64 MiB, a little at 256 MiB), so
// a ceiling of memcpy alone would let those producers beat their own floor.
// (figures: docs/design/measured-along-the-way.md, "The one-thread copy ceiling's two methods")

#include <chrono>
#include <cstring>
#include <utility>
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
#include "handoff/transport/streaming_copy.hpp"

namespace handoff::bench::shm_memcpy_ceiling {
namespace {

enum class copy_method { memcpy, streaming };

void copy_with(copy_method method, void* destination, const void* source, std::size_t bytes) {
  if (method == copy_method::streaming) {
    transport::copy_streaming(destination, source, bytes);
  } else {
    std::memcpy(destination, source, bytes);
  }
}

void shm_memcpy(benchmark::State& state, const row_context& context, std::size_t bytes,
                copy_method method) {
  std::vector<float> source(bytes / sizeof(float));
  reference::fill_seeded_nonzero(source, 0x5E6);
  auto segment = transport::shared_memory_segment::create_private(bytes, "ceiling");
  const auto destination = segment.bytes();
  measure_wall_region(
      state, context, [&] { std::memset(destination.data(), reference::poison_byte, bytes); },
      [&] { copy_with(method, destination.data(), source.data(), bytes); }, nothing_after_run,
      {.on_one_core = true});
  set_traffic(state, static_cast<double>(bytes), static_cast<double>(source.size()));
  record_verification(state,
                      reference::verify_bytes(std::as_bytes(std::span(source)), destination));
}

void register_shm_memcpy_ceiling(const bench_environment& environment) {
  for (const std::size_t bytes : host_channel_sweep_bytes(environment.config)) {
    for (const auto& [method, method_name] :
         {std::pair{copy_method::memcpy, "memcpy"}, {copy_method::streaming, "streaming"}}) {
      register_benchmark(
          benchmark_name("ceilings", ceiling::shm_memcpy,
                         {{"method", method_name}, {"bytes", std::to_string(bytes)}}),
          [=](benchmark::State& state, const row_context& context) {
            shm_memcpy(state, context, bytes, method);
          });
    }
  }
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("ceilings/shm_memcpy", 0, register_shm_memcpy_ceiling);

}  // namespace handoff::bench::shm_memcpy_ceiling

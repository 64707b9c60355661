// Kernel launch latency: back-to-back asynchronous launches, and launch plus synchronise. The
// kernel bumps a device counter, so the check proves that every timed launch ran.

#include <cuda_runtime_api.h>

#include "../harness/family_registry.hpp"
#include "../harness/measure.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/traffic.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/launch_probe.hpp"
#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/stream.hpp"

namespace handoff::bench::launch_ceilings {
namespace {

template <class LaunchOnce>
void time_launches(benchmark::State& state, const row_context& context, int launches_per_iteration,
                   LaunchOnce&& launch_once) {
  const device_buffer<unsigned long long> counter(1);
  const handoff::stream stream;
  // The counter restarts before every timed run, so after the last one it must read exactly
  // launches_per_iteration.
  measure_wall_region(
      state, context,
      [&] {
        HANDOFF_CUDA_CHECK(
            cudaMemsetAsync(counter.data(), 0, sizeof(unsigned long long), stream.get()));
        stream.synchronize();
      },
      [&] {
        for (int i = 0; i < launches_per_iteration; ++i)
          launch_once(counter.data(), stream);
        stream.synchronize();
      },
      nothing_after_run, {.uses_gpu = true});
  unsigned long long executed = 0;
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(&executed, counter.data(), sizeof(executed), cudaMemcpyDeviceToHost));
  state.counters["events"] = launches_per_iteration;
  record_verification(state, reference::verify_count(launches_per_iteration, executed));
}

void register_launch_ceilings(const bench_environment& environment) {
  const int launches = environment.config.smoke ? 10 : 1000;
  register_benchmark(std::string("ceilings/") + ceiling::launch_async,
                     [=](benchmark::State& state, const row_context& context) {
                       time_launches(state, context, launches, [](auto* counter, const stream& on) {
                         launch_counter_increment(counter, on.get());
                       });
                     });
  register_benchmark(std::string("ceilings/") + ceiling::launch_sync,
                     [=](benchmark::State& state, const row_context& context) {
                       time_launches(state, context, launches, [](auto* counter, const stream& on) {
                         launch_counter_increment(counter, on.get());
                         on.synchronize();
                       });
                     });
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("ceilings/launch", 1, register_launch_ceilings);

}  // namespace handoff::bench::launch_ceilings

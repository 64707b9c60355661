// elementwise/<cpu variant>/workload:<square|neg_b_over_a|affine>/...: seed 002's CPU side.
//   cpu_map      ProcessPoolExecutor().map(f, items), chunksize 1: spawned workers, a message per
//                item each way (affine: an item is a column of X); capped at 2^14 elements and
//                n = 256. warm = one batch on a pool already up; cold = spawning the pool plus one
//                batch, its shutdown left outside the clock.
//   cpu_chunked  one contiguous chunk per thread, in process; affine as a blocked loop.
//   cpu_blas     affine only: OpenBLAS sgemm, then the bias (when OpenBLAS was found).
// Floors: no ceiling bounds cpu_chunked or cpu_blas (the one-thread memcpy ceiling measures no
// arithmetic and no thread team; the suite has no compute ceiling). cpu_map's messages cross a
// socketpair, so its floor is every byte it writes, both directions, at pipe_between_processes.
// That floor is far below what a per-message round trip costs, which is the point of the row.
// Its cold row adds no process-start event: the suite's process_start_with_context ceiling
// includes creating a CUDA context, which a CPU worker never does, so it would price a floor
// above what the variant can reach.

#include <memory>
#include <optional>
#include <variant>

#include "../harness/family_registry.hpp"
#include "../harness/latest_cache.hpp"
#include "../harness/measure.hpp"
#include "../harness/registration.hpp"
#include "../harness/stage_counters.hpp"
#include "../harness/traffic.hpp"
#include "extended_bench_common.hpp"
#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/patterns/elementwise/extended_cpu_blas.hpp"
#include "handoff/patterns/elementwise/extended_cpu_variants.hpp"
#include "handoff/patterns/elementwise/map_pool.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/transport/process/worker_role.hpp"

namespace handoff::bench {
namespace {

using namespace patterns::elementwise;

HANDOFF_WORKER_ROLE(map_worker_role, run_map_worker);

// The warm rows share one pool (of one shape), kept until the benchmarks finish.
latest_cache<std::monostate, map_pool>& map_pools() {
  static latest_cache<std::monostate, map_pool> cache;
  return cache;
}

// Cold batches spawn a pool each; a fixed count keeps them from dominating the run.
int cold_iterations(const bench_config& config) {
  return config.smoke ? 2 : 3;
}

void add_map_counters(benchmark::State& state, const map_batch_stats& batch, std::size_t workers) {
  add_floor_bytes(state, ceiling::pipe, static_cast<double>(batch.bytes));
  state.counters["messages"] = static_cast<double>(batch.messages);
  state.counters["workers"] = static_cast<double>(workers);
}

void cpu_map_warm(benchmark::State& state, extended_workload workload, std::size_t size) {
  const auto& data = extended_data_for(workload, size);
  map_batch_stats batch;
  patterns::stage_times stages;
  timed_calls timing;
  try {
    auto& pool = map_pools().get({}, [] { return std::make_unique<map_pool>(); });
    elementwise_cpu_map variant(data.problem(), pool);
    measure_wall_region(
        state, [&] { variant.poison_output(); },
        [&] {
          timing([&] { variant.run(); });
          if (timing.timed_call()) stages += variant.last_batch().stages;
        });
    batch = variant.last_batch();
    finish_extended(state, data, variant.result());
    add_map_counters(state, batch, pool.size());
  } catch (...) {
    map_pools().drop();
    throw;
  }
  set_stage_counters(state, stages, timing.seconds());
}

void cpu_map_cold(benchmark::State& state, extended_workload workload, std::size_t size) {
  const auto& data = extended_data_for(workload, size);
  const auto problem = data.problem();
  std::vector<float> out(problem.output_count());
  std::optional<map_pool> pool;
  map_batch_stats batch;
  patterns::stage_times stages;
  timed_calls timing;
  measure_wall_region(
      state,
      [&] {
        if (pool) std::exchange(pool, std::nullopt)->shutdown();  // outside the clock
        reference::poison(out);
      },
      [&] {
        timing([&] {
          pool.emplace();
          batch = pool->run(problem, out);
        });
        if (timing.timed_call()) stages += batch.stages;
      });
  const std::size_t workers = pool->size();
  pool->shutdown();
  finish_extended(state, data, out);
  add_map_counters(state, batch, workers);
  // Process start lands in wait: none of the stages is the spawn.
  set_stage_counters(state, stages, timing.seconds());
}

// The in-process CPU variants: the whole measured time is arithmetic, so it is all kernel.
template <class Variant>
void run_in_process(benchmark::State& state, extended_workload workload, std::size_t size) {
  const auto& data = extended_data_for(workload, size);
  Variant variant(data.problem());
  timed_calls timing;
  measure_wall_region(
      state, [&] { variant.poison_output(); }, [&] { timing([&] { variant.run(); }); });
  finish_extended(state, data, variant.result());
  if constexpr (requires { variant.threads_used(); }) {
    state.counters["worker_threads"] = variant.threads_used();
  }
  set_stage_counters(state, patterns::stage_times{.kernel = timing.seconds()}, timing.seconds());
}

void register_cpu_variants(const bench_environment& environment) {
  const auto& config = environment.config;
  // Workload-major, then size-major, so consecutive benchmarks share the cached inputs.
  for (const auto workload : all_extended_workloads) {
    for (const std::size_t size : extended_sizes(workload, config)) {
      const auto add = [&](const std::string& variant, auto body, const char* start = nullptr) {
        return register_benchmark(
            extended_benchmark_name(variant, workload, size, start),
            [workload, size, body](benchmark::State& state) { body(state, workload, size); });
      };
      if (within_map_cap(workload, size)) {
        add("cpu_map", cpu_map_warm, "warm");
        add("cpu_map", cpu_map_cold, "cold")->Iterations(cold_iterations(config));
      }
      add("cpu_chunked", run_in_process<elementwise_cpu_chunked>);
#ifdef HANDOFF_HAVE_OPENBLAS
      if (workload == extended_workload::affine) {
        add("cpu_blas", run_in_process<elementwise_cpu_blas>);
      }
#endif
    }
  }
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("elementwise/extended/cpu", 0, register_cpu_variants);

}  // namespace handoff::bench

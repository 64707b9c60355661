// independent_tasks' process variants, as multiprocessing.Pool.map runs them:
//   seed         a pool of one worker per dataset (100 for the seed's size), each with its own
//                CUDA context;
//   few_workers  a pool of one worker per core, at most one per dataset.
// Warm: one batch on a pool that is already up (kept between benchmark runs, like
// tensor_transfer's receiver). Cold: starting the pool (every worker's spawn and context) plus one
// batch, what a script run once pays; the pool's shutdown is not timed. Both by the wall clock.

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "../harness/latest_cache.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/stage_counters.hpp"
#include "../harness/traffic.hpp"
#include "handoff/patterns/independent_tasks/task_pool.hpp"
#include "handoff/reference/sum_of_squares.hpp"
#include "task_benchmarks.hpp"
#include "task_floors.hpp"
#include "task_inputs.hpp"

namespace handoff::bench {
namespace {

namespace tasks = patterns::independent_tasks;
using patterns::compute_target;

enum class pool_variant { seed, few_workers };

const char* variant_name(pool_variant variant) {
  return variant == pool_variant::seed ? "seed" : "few_workers";
}

std::size_t workers_for(pool_variant variant, std::size_t datasets) {
  return variant == pool_variant::seed ? std::max<std::size_t>(1, datasets)
                                       : tasks::workers_for_cores(datasets);
}

tasks::task_pool_options options_for(std::size_t workers, compute_target target) {
  return {.workers = workers, .target = target, .name = "task_worker"};
}

struct pool_key {
  std::size_t workers = 0;
  compute_target target = compute_target::device;
  bool operator==(const pool_key&) const = default;
};

// One pool at a time: a hundred CUDA contexts hold a good share of the device's memory, so a cold
// run (which starts its own) and another warm configuration first shut the cached one down.
latest_cache<pool_key, tasks::task_pool>& pools() {
  static latest_cache<pool_key, tasks::task_pool> cache;
  return cache;
}

struct run_totals {
  patterns::stage_times stages;
  double measured_seconds = 0;
  double start_seconds = 0;
  std::size_t workers_used = 0;
  std::vector<float> sums;

  void add(tasks::batch_result&& batch, double seconds) {
    stages += batch.stages;
    measured_seconds += seconds;
    workers_used = batch.workers_used;
    sums = std::move(batch.sums);
  }
};

// map() fills a fresh result with NaN before every batch: that is this variant's poisoning.
run_totals run_warm(benchmark::State& state, const task_inputs& inputs, const pool_key& key) {
  run_totals totals;
  try {
    auto& pool = pools().get(key, [&] {
      return std::make_unique<tasks::task_pool>(options_for(key.workers, key.target));
    });
    pool.map(inputs.views);  // warm-up: first-touch pages, lazily loaded kernels
    for (auto _ : state) {
      auto batch = pool.map(inputs.views);
      state.SetIterationTime(batch.seconds);
      const double seconds = batch.seconds;
      totals.add(std::move(batch), seconds);
    }
  } catch (...) {
    pools().drop();
    throw;
  }
  return totals;
}

run_totals run_cold(benchmark::State& state, const task_inputs& inputs, const pool_key& key) {
  pools().retire();
  run_totals totals;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    tasks::task_pool pool(options_for(key.workers, key.target));
    auto batch = pool.map(inputs.views);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(seconds);
    totals.start_seconds += pool.start_seconds();
    totals.add(std::move(batch), seconds);
    pool.shutdown();  // outside the manual time
  }
  return totals;
}

void pool_benchmark(benchmark::State& state, pool_variant variant, compute_target target,
                    task_size size, bool cold) {
  const auto& inputs = task_inputs_for(size.datasets, size.elements);
  const pool_key key{workers_for(variant, size.datasets), target};
  auto totals = cold ? run_cold(state, inputs, key) : run_warm(state, inputs, key);
  record_verification(state, reference::verify_reductions(inputs.expected, totals.sums));

  set_traffic(state, inputs.bytes(), static_cast<double>(inputs.batch.total_elements()));
  set_stage_counters(state, totals.stages, totals.measured_seconds);
  state.counters["workers"] = static_cast<double>(key.workers);
  state.counters["workers_used"] = static_cast<double>(totals.workers_used);
  if (cold) {
    state.counters["start_seconds"] =
        benchmark::Counter(totals.start_seconds, benchmark::Counter::kAvgIterations);
  }
  const double iterations = std::max(1.0, static_cast<double>(state.iterations()));
  add_process_floor(
      state, inputs,
      {.workers = key.workers,
       .on_device = target == compute_target::device,
       .cold = cold,
       // stages.kernel is averaged over the workers used; times them, it is the total.
       .stand_in_compute_seconds =
           totals.stages.kernel * static_cast<double>(totals.workers_used) / iterations});
}

// Each cold run of seed starts a pool of 100 workers (on the device, 100 contexts): a fixed small
// count keeps the family's run short.
int cold_iterations(const bench_config& config) {
  return config.smoke ? 1 : 3;
}

}  // namespace

// Variant-major, warm rows first: consecutive warm rows share the cached pool.
void register_process_variants(const bench_environment& environment, compute_target target) {
  for (const auto variant : {pool_variant::seed, pool_variant::few_workers}) {
    for (const bool cold : {false, true}) {
      for (const auto& size : task_sizes(environment.config)) {
        if (cold && !size.is_default) continue;
        const auto name =
            benchmark_name("independent_tasks", variant_name(variant),
                           {{"compute", std::string(patterns::compute_target_name(target))},
                            {"datasets", std::to_string(size.datasets)},
                            {"elements", std::to_string(size.elements)},
                            {"start", cold ? "cold" : "warm"}});
        auto* benchmark =
            register_benchmark(name, [variant, target, size, cold](benchmark::State& state) {
              pool_benchmark(state, variant, target, size, cold);
            });
        if (cold) benchmark->Iterations(cold_iterations(environment.config));
      }
    }
  }
}

}  // namespace handoff::bench

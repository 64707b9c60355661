// pool_prep/<variant>/chunks:<c>/elements:<per chunk>/workers:<w>/start:<cold|warm>: seed 000
// example 1 (and seed 001 example 1), a pool preparing a vector add's inputs chunk by chunk for
// the GPU. Variants: seed (spawned workers, each with its own context, pageable copies and fresh
// allocations, results back by value), shared_gpu (workers prepare into shared memory, one GPU
// owner streams it), threads (preparation threads and streams in one process), and the CPU
// references cpu_serial and cpu_pool. Every batch is checked element by element against the
// reference; the floors are in pool_prep_floors.cpp.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../harness/family_registry.hpp"
#include "../harness/latest_cache.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/stage_counters.hpp"
#include "../harness/traffic.hpp"
#include "handoff/patterns/pool_prep/cpu_serial.hpp"
#include "handoff/patterns/pool_prep/map_pool.hpp"
#include "handoff/patterns/pool_prep/map_worker.hpp"
#include "handoff/patterns/pool_prep/ring_worker.hpp"
#include "handoff/patterns/pool_prep/shared_gpu_pool.hpp"
#include "handoff/patterns/pool_prep/threads_pipeline.hpp"
#include "handoff/patterns/process/worker_role.hpp"
#include "pool_prep_data.hpp"
#include "pool_prep_floors.hpp"

namespace handoff::bench::pool_prep {
namespace {

namespace pp = patterns::pool_prep;
using patterns::compute_target;
using patterns::stage_times;
using clock_type = std::chrono::steady_clock;

HANDOFF_WORKER_ROLE(pp::map_worker_role, pp::run_map_worker);
HANDOFF_WORKER_ROLE(pp::ring_worker_role, pp::run_ring_worker);

enum class variant { cpu_serial, cpu_pool, seed, shared_gpu, threads };

const char* variant_name(variant which) {
  switch (which) {
    case variant::cpu_serial:
      return "cpu_serial";
    case variant::cpu_pool:
      return "cpu_pool";
    case variant::seed:
      return "seed";
    case variant::shared_gpu:
      return "shared_gpu";
    case variant::threads:
      return "threads";
  }
  return "unknown";
}

struct point {
  std::size_t chunks = 10;
  std::size_t elements = std::size_t{1} << 20;  // per chunk
  std::size_t workers = 4;
  std::size_t total() const { return chunks * elements; }
  bool operator==(const point&) const = default;
};

constexpr std::size_t default_workers = 4;
constexpr std::size_t default_elements = std::size_t{1} << 20;

pp::batch batch_at(const point& at) {
  return {.total_elements = at.total(), .chunks = at.chunks, .seeds = batch_seeds};
}

struct pool_key {
  variant which;
  point at;
  bool operator==(const pool_key&) const = default;
};

template <class Pool>
std::unique_ptr<Pool> start_pool(const pool_key& key);

template <>
std::unique_ptr<pp::map_pool> start_pool(const pool_key& key) {
  return std::make_unique<pp::map_pool>(pp::map_pool_options{
      .workers = key.at.workers,
      .target = key.which == variant::seed ? compute_target::device : compute_target::host_stand_in,
      .name = std::string("pool-prep-") + variant_name(key.which)});
}

template <>
std::unique_ptr<pp::shared_gpu_pool> start_pool(const pool_key& key) {
  return std::make_unique<pp::shared_gpu_pool>(
      pp::shared_gpu_options{.workers = key.at.workers,
                             .max_chunk_elements = key.at.elements,
                             .target = compute_target::device,
                             .purpose = "pool-prep-shared"});
}

template <class Pool>
latest_cache<pool_key, Pool>& pools() {
  static latest_cache<pool_key, Pool> cache;
  return cache;
}

// One pool is up at a time, of either kind.
template <class Pool>
Pool& warm_pool(const pool_key& key) {
  if constexpr (std::is_same_v<Pool, pp::map_pool>) {
    pools<pp::shared_gpu_pool>().retire();
  } else {
    pools<pp::map_pool>().retire();
  }
  return pools<Pool>().get(key, [&] { return start_pool<Pool>(key); });
}

// A failed batch leaves its pool terminated, and a cold figure starts from no pool at all.
void drop_pools() noexcept {
  pools<pp::map_pool>().drop();
  pools<pp::shared_gpu_pool>().drop();
}

// What one benchmark accumulates over its timed iterations.
struct tally {
  stage_times stages;
  double seconds = 0;
  template <class Run>
  void time(benchmark::State& state, Run&& run) {
    const auto start = clock_type::now();
    stages += run();
    const double elapsed = std::chrono::duration<double>(clock_type::now() - start).count();
    state.SetIterationTime(elapsed);
    seconds += elapsed;
  }
};

floor_shape shape_of(const point& at, std::size_t workers) {
  return {.elements = static_cast<double>(at.total()),
          .chunks = static_cast<double>(at.chunks),
          .workers = static_cast<double>(workers),
          .chunk_prep_seconds = fastest_chunk_prep_seconds(at.elements)};
}

// Verifies the last timed batch in full and sets the counters every variant reports.
floor_shape finish(benchmark::State& state, const point& at, std::size_t workers,
                   std::span<const float> result, const tally& totals) {
  record_verification(state, reference::verify_elementwise(expected_batch(at.total()), result));
  set_stage_counters(state, totals.stages, totals.seconds);
  const double n = static_cast<double>(at.total());
  set_traffic(state, 3 * sizeof(float) * n, n);  // a and b in, c out
  const auto shape = shape_of(at, workers);
  state.counters["chunk_prep_seconds"] = shape.chunk_prep_seconds;
  state.counters["workers"] = static_cast<double>(workers);
  return shape;
}

void cpu_serial(benchmark::State& state, const point& at) {
  pp::cpu_serial serial;
  const auto work = batch_at(at);
  serial.run(work);  // untimed: first-touch page faults stay out of the figures
  tally totals;
  for (auto _ : state) {
    serial.poison_output();
    totals.time(state, [&] { return serial.run(work); });
  }
  add_cpu_serial_floor(state, finish(state, at, 1, serial.result(), totals));
}

void threads(benchmark::State& state, const point& at) {
  pp::threads_pipeline pipeline({.prep_threads = at.workers,
                                 .max_chunk_elements = at.elements,
                                 .target = compute_target::device});
  const auto work = batch_at(at);
  const batch_output out(true, at.total());
  pipeline.run(work, out.floats());  // untimed warm-up
  tally totals;
  for (auto _ : state) {
    out.poison();
    totals.time(state, [&] { return pipeline.run(work, out.floats()); });
  }
  add_streamed_floor(state, finish(state, at, at.workers, out.floats(), totals));
}

template <class Pool>
void pool_variant(benchmark::State& state, variant which, const point& at, bool cold) {
  const pool_key key{which, at};
  const auto work = batch_at(at);
  const batch_output out(which == variant::shared_gpu, at.total());
  tally totals;
  try {
    if (cold) {
      drop_pools();
      std::unique_ptr<Pool> pool;
      for (auto _ : state) {
        pool.reset();  // the previous iteration's pool shuts down outside the timing
        out.poison();
        totals.time(state, [&] {
          pool = start_pool<Pool>(key);
          return pool->run(work, out.floats());
        });
      }
    } else {
      auto& pool = warm_pool<Pool>(key);
      pool.run(work, out.floats());  // untimed warm-up
      for (auto _ : state) {
        out.poison();
        totals.time(state, [&] { return pool.run(work, out.floats()); });
      }
    }
  } catch (...) {
    drop_pools();
    throw;
  }
  const auto shape = finish(state, at, at.workers, out.floats(), totals);
  if (which == variant::shared_gpu) {
    add_streamed_floor(state, shape);
  } else {
    add_map_pool_floor(state, shape, which == variant::seed, cold);
  }
}

// The default size (10 chunks of 2^20 floats; the seed's 1'000'000 rounded to a power of two)
// with 2, 4 and 8 workers; a smaller and a larger chunk with 4 workers. Cold figures at the
// default only: each one starts a whole pool. A smoke run: 3 uneven-sized chunks of 1027.
std::vector<point> sweep(const bench_config& config) {
  if (config.smoke) return {{.chunks = 3, .elements = 1027, .workers = 2}};
  std::vector<point> points;
  const auto add = [&](std::size_t elements, std::size_t workers) {
    const point at{.chunks = 10, .elements = elements, .workers = workers};
    if (at.total() <= config.max_elements) points.push_back(at);
  };
  add(std::size_t{1} << 16, default_workers);
  for (const std::size_t workers : {2, 4, 8})
    add(default_elements, workers);
  add(std::size_t{1} << 22, default_workers);
  return points;
}

bool has_cold(const bench_config& config, const point& at) {
  return config.smoke || (at.elements == default_elements && at.workers == default_workers);
}

std::string name_of(variant which, const point& at, bool with_workers,
                    std::optional<bool> cold = std::nullopt) {
  std::vector<std::pair<std::string, std::string>> axes{{"chunks", std::to_string(at.chunks)},
                                                        {"elements", std::to_string(at.elements)}};
  if (with_workers) axes.emplace_back("workers", std::to_string(at.workers));
  if (cold) axes.emplace_back("start", *cold ? "cold" : "warm");
  return benchmark_name("pool_prep", variant_name(which), axes);
}

template <class Pool>
void register_pool_variant(const bench_config& config, variant which) {
  for (const auto& at : sweep(config)) {
    for (const bool cold : {false, true}) {
      if (cold && !has_cold(config, at)) continue;
      auto* registered = register_benchmark(name_of(which, at, true, cold),
                                            [which, at, cold](benchmark::State& state) {
                                              pool_variant<Pool>(state, which, at, cold);
                                            });
      if (cold) registered->Iterations(config.smoke ? 1 : 3);
    }
  }
}

void register_cpu_variants(const bench_environment& environment) {
  const auto& config = environment.config;
  for (const auto& at : sweep(config)) {
    if (!config.smoke && at.workers != default_workers) continue;  // it has no workers
    register_benchmark(name_of(variant::cpu_serial, at, false),
                       [at](benchmark::State& state) { cpu_serial(state, at); });
  }
  register_pool_variant<pp::map_pool>(config, variant::cpu_pool);
}

void register_gpu_variants(const bench_environment& environment) {
  const auto& config = environment.config;
  register_pool_variant<pp::map_pool>(config, variant::seed);
  register_pool_variant<pp::shared_gpu_pool>(config, variant::shared_gpu);
  for (const auto& at : sweep(config)) {
    register_benchmark(name_of(variant::threads, at, true),
                       [at](benchmark::State& state) { threads(state, at); });
  }
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("pool_prep/cpu", 0, register_cpu_variants);
HANDOFF_BENCHMARK_FAMILY("pool_prep/gpu", 1, register_gpu_variants);

}  // namespace handoff::bench::pool_prep

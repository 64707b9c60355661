// postproc_split (seed 000 example 3): c = a + b is already in device memory; the timed region
// runs until its sum is on the host. The process variants (seed, shm, overlapped) copy c back and
// sum it in a pool of spawned CPU workers; gpu_reduce sums it where it lies and copies back one
// scalar. The cpu family runs the process variants with a host stand-in for the device (the copy
// back becomes a host memcpy), so CI exercises their orchestration, plus cpu_serial: one thread
// summing c in host memory, the best CPU reference.
//
// Names: postproc_split/<variant>/target:<device|host>/elements:N/chunks:K/workers:W/start:<s>
// for the process variants, postproc_split/<gpu_reduce|cpu_serial>/elements:N otherwise.

#include <chrono>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../harness/family_registry.hpp"
#include "../harness/latest_cache.hpp"
#include "../harness/measure.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/stage_counters.hpp"
#include "../harness/traffic.hpp"
#include "handoff/patterns/postproc_split/chunk_sum.hpp"
#include "handoff/patterns/postproc_split/gpu_reduce.hpp"
#include "handoff/patterns/postproc_split/split_variants.hpp"
#include "handoff/patterns/postproc_split/summing_worker.hpp"
#include "handoff/patterns/process/worker_role.hpp"
#include "split_floors.hpp"
#include "split_inputs.hpp"

namespace handoff::bench {
namespace {

namespace split = patterns::postproc_split;
using patterns::compute_target;
using split::split_variant;

HANDOFF_WORKER_ROLE(split::summing_worker_role, split::run_summing_worker);

constexpr std::size_t default_elements = 10'000'000;  // the seed's 10M
constexpr std::size_t seed_chunk_elements = 1'000'000;
constexpr std::size_t default_workers = 4;
constexpr auto patience = std::chrono::seconds(60);

struct split_key {
  split_variant variant;
  compute_target target;
  std::size_t count;
  std::size_t chunks;
  std::size_t workers;
  bool operator==(const split_key&) const = default;
};

split::split_setup setup_for(const split_key& key) {
  return {.workers = key.workers,
          .chunks = key.chunks,
          .patience = std::chrono::duration_cast<std::chrono::milliseconds>(patience)};
}

// The latest configuration's pool (and its segment) stays up across runs.
latest_cache<split_key, split::pooled_split>& splits() {
  static latest_cache<split_key, split::pooled_split> cache;
  return cache;
}

// Every timed batch's sum is verified, not only the last one's.
struct batch_tally {
  patterns::stage_times stages;
  double seconds = 0.0;
  reference::verification_result verdict;

  void add(double expected, double actual, double batch_seconds) {
    seconds += batch_seconds;
    const auto one = reference::verify_reduction(expected, actual);
    verdict.checked += one.checked;
    verdict.mismatches += one.mismatches;
    if (!verdict.first && one.first) verdict.first = one.first;
  }
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

split::computed_result computed_result_of(const split_inputs& inputs, compute_target target) {
  if (target == compute_target::device) return {target, inputs.device_c.span()};
  return {target, inputs.c};
}

void run_warm(benchmark::State& state, const split_key& key, split::computed_result c,
              double expected, batch_tally& tally) {
  auto& variant =
      splits().get(key, [&] { return split::make_pooled_split(key.variant, c, setup_for(key)); });
  patterns::stage_times warm_up;
  variant.poison();
  variant.run(warm_up);
  for (auto _ : state) {
    variant.poison();
    const auto start = std::chrono::steady_clock::now();
    const double sum = variant.run(tally.stages);
    const double seconds = seconds_since(start);
    state.SetIterationTime(seconds);
    tally.add(expected, sum, seconds);
  }
}

// Each iteration starts the pool (and makes its memory) from nothing, runs one batch, and shuts
// the pool down again outside the timing.
void run_cold(benchmark::State& state, const split_key& key, split::computed_result c,
              double expected, batch_tally& tally) {
  splits().drop();
  const auto setup = setup_for(key);
  const auto cold_batch = [&](patterns::stage_times& stages) {
    const auto start = std::chrono::steady_clock::now();
    auto variant = split::make_pooled_split(key.variant, c, setup);
    const double sum = variant->run(stages);
    const double seconds = seconds_since(start);
    variant->pool().shutdown();
    return std::pair{sum, seconds};
  };
  patterns::stage_times warm_up;
  cold_batch(warm_up);  // the first start also reads the program and its libraries from disk
  for (auto _ : state) {
    const auto [sum, seconds] = cold_batch(tally.stages);
    state.SetIterationTime(seconds);
    tally.add(expected, sum, seconds);
  }
}

void pooled_split_benchmark(benchmark::State& state, const split_key& key, bool cold) {
  const auto& inputs = split_inputs_for(key.count, key.target == compute_target::device);
  const auto c = computed_result_of(inputs, key.target);
  batch_tally tally;
  try {
    if (cold) {
      run_cold(state, key, c, inputs.expected_sum, tally);
    } else {
      run_warm(state, key, c, inputs.expected_sum, tally);
    }
  } catch (...) {
    splits().drop();
    throw;
  }
  const double one_thread = one_thread_sum_seconds(inputs.c);
  set_stage_counters(state, tally.stages, tally.seconds);
  set_traffic(state, static_cast<double>(key.count * sizeof(float)),
              static_cast<double>(key.count));
  add_pooled_split_floor(
      state, key.variant, key.target, key.count,
      post_floor_seconds(key.variant, key.count, key.chunks, key.workers, one_thread));
  state.counters["one_thread_sum_seconds"] = one_thread;
  record_verification(state, tally.verdict);
}

void gpu_reduce_benchmark(benchmark::State& state, std::size_t count) {
  const auto& inputs = split_inputs_for(count, true);
  split::gpu_reduce variant(inputs.device_c.span());
  batch_tally tally;
  bool warmed_up = false;
  // The wall clock, although the work is the GPU's: the region ends when the host holds the
  // scalar, which is what post-processing delivers and what the floor's synchronised launch prices.
  measure_wall_region(
      state, [&] { variant.poison(); },
      [&] {
        const auto start = std::chrono::steady_clock::now();
        const double sum = variant.run();
        if (warmed_up) tally.add(inputs.expected_sum, sum, seconds_since(start));
        warmed_up = true;
      });
  // The scalar is written by the reduction's last kernel, so the whole region is the kernel stage.
  tally.stages.kernel = tally.seconds;
  set_stage_counters(state, tally.stages, tally.seconds);
  set_traffic(state, static_cast<double>(count * sizeof(float)), static_cast<double>(count));
  add_gpu_reduce_floor(state, count);
  record_verification(state, tally.verdict);
}

// No floor: no ceiling of the suite bounds one thread reading host memory that may sit in cache.
void cpu_serial_benchmark(benchmark::State& state, std::size_t count) {
  const auto& inputs = split_inputs_for(count, false);
  batch_tally tally;
  bool warmed_up = false;
  double result = std::numeric_limits<double>::quiet_NaN();
  measure_wall_region(
      state, [&] { result = std::numeric_limits<double>::quiet_NaN(); },
      [&] {
        const auto start = std::chrono::steady_clock::now();
        result = split::sum_chunk(inputs.c);
        if (warmed_up) tally.add(inputs.expected_sum, result, seconds_since(start));
        warmed_up = true;
      });
  tally.stages.post = tally.seconds;
  set_stage_counters(state, tally.stages, tally.seconds);
  set_traffic(state, static_cast<double>(count * sizeof(float)), static_cast<double>(count));
  record_verification(state, tally.verdict);
}

struct sweep_point {
  std::size_t count;
  std::size_t chunks;
  std::size_t workers;
  bool cold;
};

// elements {2^20, 10M, 2^26} with 1M-element chunks (the seed's c.size // chunk_size sections) on
// 4 workers, plus 2 and 8 workers and the cold start at the seed's 10M. A smoke run uses one
// small size that splits unevenly into more chunks than workers.
std::vector<sweep_point> sweep(const bench_config& config) {
  if (config.smoke) return {{100'003, 7, 4, false}, {100'003, 7, 4, true}};
  std::vector<sweep_point> points;
  for (const std::size_t count : {std::size_t{1} << 20, default_elements, std::size_t{1} << 26}) {
    if (count > config.max_elements) continue;
    const std::size_t chunks = split::sections_for_chunk_size(count, seed_chunk_elements);
    points.push_back({count, chunks, default_workers, false});
    if (count != default_elements) continue;
    points.push_back({count, chunks, 2, false});
    points.push_back({count, chunks, 8, false});
    points.push_back({count, chunks, default_workers, true});
  }
  return points;
}

int cold_iterations(const bench_config& config) {
  return config.smoke ? 2 : 5;
}

void register_pooled_split(const bench_environment& environment, compute_target target,
                           const sweep_point& point) {
  for (const auto variant : split::all_split_variants) {
    const split_key key{variant, target, point.count, point.chunks, point.workers};
    const auto name = benchmark_name("postproc_split", std::string(split_variant_name(variant)),
                                     {{"target", std::string(compute_target_name(target))},
                                      {"elements", std::to_string(point.count)},
                                      {"chunks", std::to_string(point.chunks)},
                                      {"workers", std::to_string(point.workers)},
                                      {"start", point.cold ? "cold" : "warm"}});
    auto* benchmark = register_benchmark(name, [key, cold = point.cold](benchmark::State& state) {
      pooled_split_benchmark(state, key, cold);
    });
    if (point.cold) benchmark->Iterations(cold_iterations(environment.config));
  }
}

// Size-major, so that consecutive benchmarks share the cached inputs of one size. in_process is
// the row that needs no pool: gpu_reduce on the device, cpu_serial on the host.
void register_family(const bench_environment& environment, compute_target target,
                     const char* in_process,
                     void (*in_process_body)(benchmark::State&, std::size_t)) {
  std::size_t registered_count = 0;
  for (const auto& point : sweep(environment.config)) {
    if (point.count != registered_count) {
      const std::size_t count = point.count;
      register_benchmark(
          benchmark_name("postproc_split", in_process, {{"elements", std::to_string(count)}}),
          [count, in_process_body](benchmark::State& state) { in_process_body(state, count); });
      registered_count = count;
    }
    register_pooled_split(environment, target, point);
  }
}

void register_gpu_benchmarks(const bench_environment& environment) {
  register_family(environment, compute_target::device, "gpu_reduce", gpu_reduce_benchmark);
}

void register_cpu_benchmarks(const bench_environment& environment) {
  register_family(environment, compute_target::host_stand_in, "cpu_serial", cpu_serial_benchmark);
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("postproc_split/cpu", 0, register_cpu_benchmarks);
HANDOFF_BENCHMARK_FAMILY("postproc_split/gpu", 1, register_gpu_benchmarks);

}  // namespace handoff::bench

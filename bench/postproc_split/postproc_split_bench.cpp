// postproc_split (seed 000 example 3): c = a + b is already in device memory; the timed region
// runs until its sum is on the host. The variants are patterns/postproc_split's table; this file
// names the points they run at. The cpu family runs the process variants with a host stand-in for
// the device (the copy back becomes a host memcpy), so CI exercises their orchestration, plus
// cpu_serial; the gpu family runs them on the device, plus gpu_reduce.
//
// Names: postproc_split/<variant>/target:<device|host>/elements:N/chunks:K/workers:W/start:<s>
// for the process variants (the rows with a cold figure), postproc_split/<variant>/elements:N for
// the in-process ones.

#include <string>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
#include "handoff/patterns/postproc_split/array_split.hpp"
#include "handoff/patterns/postproc_split/summing_worker.hpp"
#include "handoff/patterns/postproc_split/variants.hpp"
#include "handoff/transport/process/worker_role.hpp"

namespace handoff::bench::postproc_split {
namespace {

namespace split = patterns::postproc_split;
using patterns::compute_target;
using split::split_case;
using split::split_point;

HANDOFF_WORKER_ROLE(split::summing_worker_role, split::run_summing_worker);

constexpr std::size_t default_elements = 10'000'000;  // the seed's 10M
constexpr std::size_t seed_chunk_elements = 1'000'000;
constexpr std::size_t default_workers = 4;

// Made when first asked, once main has started: a table's rows may be initialised before main
// in any order.
const pattern_spec<split_point, split_case>& spec() {
  static const pattern_spec<split_point, split_case> made{
      .pattern = "postproc_split",
      .table = split::postproc_split_variants(),
      .make_case = split::make_split_case,
      .traffic = [](const split_point& at) {
        return std::pair{static_cast<double>(at.count * sizeof(float)),
                         static_cast<double>(at.count)};
      }};
  return made;
}

struct sweep_point {
  split_point at;
  bool cold;
};

// elements {2^20, 10M, 2^26 (the full profile)} with 1M-element chunks (the seed's c.size //
// chunk_size sections) on 4 workers, plus 2 and 8 workers and the cold start at the seed's 10M. A
// smoke run uses one small size that splits unevenly into more chunks than workers.
std::vector<sweep_point> sweep(const bench_config& config, compute_target target) {
  const auto chosen = chosen_values(config, "elements");
  if (config.smoke && !chosen) {
    return {{{100'003, 7, 4, target}, false}, {{100'003, 7, 4, target}, true}};
  }
  std::vector<sweep_point> points;
  for (const std::size_t count : chosen.value_or(std::vector<std::size_t>{
           std::size_t{1} << 20, default_elements, std::size_t{1} << 26})) {
    if (count > config.max_elements) continue;
    // 2^26 elements is the full profile's, unless chosen.
    if (!chosen && count > default_elements && config.profile != bench_profile::full) continue;
    const std::size_t chunks = split::sections_for_chunk_size(count, seed_chunk_elements);
    points.push_back({{count, chunks, default_workers, target}, false});
    if (count != default_elements) continue;
    points.push_back({{count, chunks, 2, target}, false});
    points.push_back({{count, chunks, 8, target}, false});
    points.push_back({{count, chunks, default_workers, target}, true});
  }
  return points;
}

int cold_iterations(const bench_config& config) {
  return config.smoke ? 2 : 5;
}

bool has_cold_figure(const split::split_row& row) {
  return row.cold != patterns::cold_kind::none;
}

void register_process_rows(const bench_environment& environment, const sweep_point& point) {
  const auto& at = point.at;
  for (const auto& row : spec().table) {
    if (!has_cold_figure(row) || !row.targets.supports(at.target)) continue;
    const auto name = benchmark_name("postproc_split", std::string(row.name),
                                     {{"target", std::string(compute_target_name(at.target))},
                                      {"elements", std::to_string(at.count)},
                                      {"chunks", std::to_string(at.chunks)},
                                      {"workers", std::to_string(at.workers)},
                                      {"start", point.cold ? "cold" : "warm"}});
    register_variant(spec(), row, at, at.target, point.cold ? start::cold : start::warm, name,
                     cold_iterations(environment.config));
  }
}

// Size-major, so that consecutive benchmarks share the case of one size; each size starts with
// the in-process row of the target (gpu_reduce on the device, cpu_serial on the host), which
// shares the case of the size's first point.
void register_family(const bench_environment& environment, compute_target target) {
  std::size_t registered_count = 0;
  for (const auto& point : sweep(environment.config, target)) {
    if (point.at.count != registered_count) {
      for (const auto& row : spec().table) {
        if (has_cold_figure(row) || !row.targets.supports(target)) continue;
        register_variant(spec(), row, point.at, target, start::warm,
                         benchmark_name("postproc_split", std::string(row.name),
                                        {{"elements", std::to_string(point.at.count)}}));
      }
      registered_count = point.at.count;
    }
    register_process_rows(environment, point);
  }
}

void register_gpu_benchmarks(const bench_environment& environment) {
  register_family(environment, compute_target::device);
}

void register_cpu_benchmarks(const bench_environment& environment) {
  register_family(environment, compute_target::host_stand_in);
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("postproc_split/cpu", 0, register_cpu_benchmarks);
HANDOFF_BENCHMARK_FAMILY("postproc_split/gpu", 1, register_gpu_benchmarks);

}  // namespace handoff::bench::postproc_split

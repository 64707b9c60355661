// postproc_split (seed 000 example 3): c = a + b is already in device memory; the timed region
// runs until its sum is on the host. The variants are patterns/postproc_split's table; this file
// declares the points they run at and their names (sweep_registrar.hpp registers every row). The
// cpu family runs the process variants with a host stand-in for the device (the copy back becomes a
// host memcpy), so CI exercises their orchestration, plus cpu_serial; the gpu family runs them on
// the device, plus gpu_reduce.
//
// Names: postproc_split/<variant>/target:<device|host>/elements:N/chunks:K/workers:W/start:<s>
// for the process variants (the rows with a cold figure), postproc_split/<variant>/elements:N for
// the in-process ones.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/sweep_registrar.hpp"
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

// elements {2^20, 10M, 2^26 (the full profile)} with 1M-element chunks (the seed's c.size //
// chunk_size sections) on 4 workers, plus 2 and 8 workers and the cold start at the seed's 10M,
// after them. A smoke run uses one small size that splits unevenly into more chunks than workers.
std::vector<std::pair<split_point, start>> steps(const bench_config& config,
                                                 compute_target target) {
  const auto chosen = chosen_values(config, "elements");
  if (config.smoke && !chosen) {
    const split_point at{100'003, 7, default_workers, target};
    return {{at, start::warm}, {at, start::cold}};
  }
  std::vector<std::pair<split_point, start>> points;
  for (const std::size_t count : chosen.value_or(std::vector<std::size_t>{
           std::size_t{1} << 20, default_elements, std::size_t{1} << 26})) {
    if (count > config.max_elements) continue;
    // 2^26 elements is the full profile's, unless chosen.
    if (!chosen && count > default_elements && config.profile != bench_profile::full) continue;
    const std::size_t chunks = split::sections_for_chunk_size(count, seed_chunk_elements);
    const split_point at{count, chunks, default_workers, target};
    points.emplace_back(at, start::warm);
    if (count != default_elements) continue;
    for (const std::size_t workers : {2, 8})
      points.emplace_back(split_point{count, chunks, workers, target}, start::warm);
    points.emplace_back(at, start::cold);
  }
  return points;
}

int cold_iterations(const bench_config& config, const split_point&) {
  return config.smoke ? 2 : 5;
}

bool in_process(const split::split_row& row) {
  return row.cold == patterns::cold_kind::none;
}

// An in-process row (gpu_reduce on the device, cpu_serial on the host) runs once a size, first,
// sharing the case of the size's first point.
bool runs_at(const bench_config&, const split::split_row& row, const split_point& at,
             compute_target, start) {
  return !in_process(row) || at.workers == default_workers;
}

bool has_axis(const split::split_row& row, std::string_view axis) {
  return !in_process(row) || axis == "elements";
}

name_axes axes(const split_point& at, compute_target target, std::optional<start> how) {
  return {{"target", std::string(compute_target_name(target))},
          {"elements", std::to_string(at.count)},
          {"chunks", std::to_string(at.chunks)},
          {"workers", std::to_string(at.workers)},
          {"start", how == start::cold ? "cold" : "warm"}};
}

// Size-major, so that consecutive benchmarks share the case of one size.
constexpr pattern_sweep<split_point, split_case> split_sweep{.spec = spec,
                                                             .rows = family_rows::by_target,
                                                             .axes = axes,
                                                             .cold_samples = cold_iterations,
                                                             .row_runs_at = runs_at,
                                                             .row_has_axis = has_axis,
                                                             .leads = in_process,
                                                             .steps = steps};

}  // namespace

HANDOFF_BENCHMARK_FAMILY("postproc_split/cpu", 0,
                         register_sweep_on<split_sweep, compute_target::host_stand_in>);
HANDOFF_BENCHMARK_FAMILY("postproc_split/gpu", 1,
                         register_sweep_on<split_sweep, compute_target::device>);

}  // namespace handoff::bench::postproc_split

#include "handoff/patterns/postproc_split/sweep.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "handoff/patterns/postproc_split/array_split.hpp"

namespace handoff::patterns::postproc_split {

// Named, so that a unity build of this layer (the sanitizer presets) never joins these helpers
// with another file's.
namespace postproc_split_sweep {
namespace {

constexpr std::size_t default_elements = 10'000'000;  // the seed's 10M
constexpr std::size_t seed_chunk_elements = 1'000'000;
constexpr std::size_t default_workers = 4;

// elements {2^20, 10M, 2^26 (the full profile)} with 1M-element chunks (the seed's c.size //
// chunk_size sections) on 4 workers, plus 2 and 8 workers and the cold start at the seed's 10M,
// after them. A smoke run uses one small size that splits unevenly into more chunks than workers.
std::vector<std::pair<split_point, start>> steps(const sweep_settings& settings,
                                                 compute_target target) {
  const auto chosen = chosen_values(settings, "elements");
  if (settings.smoke && !chosen) {
    const split_point at{100'003, 7, default_workers, target};
    return {{at, start::warm}, {at, start::cold}};
  }
  std::vector<std::pair<split_point, start>> points;
  for (const std::size_t count : chosen.value_or(std::vector<std::size_t>{
           std::size_t{1} << 20, default_elements, std::size_t{1} << 26})) {
    if (count > settings.max_elements) continue;
    // 2^26 elements is the full profile's, unless chosen.
    if (!chosen && count > default_elements && settings.profile != sweep_profile::full) continue;
    const std::size_t chunks = sections_for_chunk_size(count, seed_chunk_elements);
    const split_point at{count, chunks, default_workers, target};
    points.emplace_back(at, start::warm);
    if (count != default_elements) continue;
    for (const std::size_t workers : {2, 8})
      points.emplace_back(split_point{count, chunks, workers, target}, start::warm);
    points.emplace_back(at, start::cold);
  }
  return points;
}

int cold_iterations(const sweep_settings& settings, const split_point&) {
  return settings.smoke ? 2 : 5;
}

bool in_process(const split_row& row) {
  return row.cold == cold_kind::none;
}

// An in-process row (gpu_reduce on the device, cpu_serial on the host) runs once a size, first,
// sharing the case of the size's first point.
bool runs_at(const sweep_settings&, const split_row& row, const split_point& at, compute_target,
             start) {
  return !in_process(row) || at.workers == default_workers;
}

bool has_axis(const split_row& row, std::string_view axis) {
  return !in_process(row) || axis == "elements";
}

name_axes axes(const split_point& at, compute_target target, std::optional<start> how) {
  return {{"target", std::string(compute_target_name(target))},
          {"elements", std::to_string(at.count)},
          {"chunks", std::to_string(at.chunks)},
          {"workers", std::to_string(at.workers)},
          {"start", std::string(start_name(how.value_or(start::warm)))}};
}

// Size-major, so that consecutive benchmarks share the case of one size.
constexpr pattern_sweep<split_point, split_case> sweep{.rows = family_rows::by_target,
                                                       .axes = axes,
                                                       .cold_samples = cold_iterations,
                                                       .row_runs_at = runs_at,
                                                       .row_has_axis = has_axis,
                                                       .leads = in_process,
                                                       .steps = steps};

}  // namespace
}  // namespace postproc_split_sweep

const pattern_benchmarks<split_point, split_case>& postproc_split_benchmarks() {
  static const pattern_benchmarks<split_point, split_case> made{
      .spec = {.pattern = "postproc_split",
               .table = postproc_split_variants(),
               .make_case = make_split_case,
               .traffic =
                   [](const split_point& at) {
                     return std::pair{static_cast<double>(at.count * sizeof(float)),
                                      static_cast<double>(at.count)};
                   }},
      .settable_axes = {"elements"},
      .families = {{.name = "cpu",
                    .target = compute_target::host_stand_in,
                    .sweeps = {postproc_split_sweep::sweep}},
                   {.name = "gpu",
                    .min_gpus = 1,
                    .target = compute_target::device,
                    .sweeps = {postproc_split_sweep::sweep}}}};
  return made;
}

}  // namespace handoff::patterns::postproc_split

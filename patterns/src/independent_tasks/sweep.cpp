#include "handoff/patterns/independent_tasks/sweep.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace handoff::patterns::independent_tasks {

// Named, so that a unity build of this layer (the sanitizer presets) never joins these helpers
// with another file's.
namespace independent_tasks_sweep {
namespace {

constexpr std::size_t seed_datasets = 100;
constexpr std::size_t seed_elements = 10'000;

// The seed's size and ten times its datasets' length, within the element cap in all. A smoke run
// uses 10 datasets of 1027 (a length no kernel tile divides).
std::vector<task_point> sizes(const sweep_settings& settings) {
  if (settings.smoke) return {{10, 1027}};
  std::vector<task_point> points;
  for (const std::size_t elements : {seed_elements, 10 * seed_elements}) {
    if (static_cast<std::uint64_t>(seed_datasets * elements) > settings.max_elements) break;
    // Each size starts its pools anew (the seed's: 100 processes, on the device each with a
    // context, about half a minute): the default profile measures the seed's size only.
    if (elements != seed_elements && settings.profile != sweep_profile::full) break;
    points.push_back({seed_datasets, elements});
  }
  return points;
}

// Cold rows run at the seed's size (or the smoke size) only.
bool is_default_size(const sweep_settings& settings, const task_point& at) {
  return settings.smoke || at.elements == seed_elements;
}

bool is_process_row(const task_row& row) {
  return row.cold != cold_kind::none;
}

name_axes size_axes(const task_point& at, compute_target, std::optional<start>) {
  return {{"datasets", std::to_string(at.datasets)}, {"elements", std::to_string(at.elements)}};
}

// The CPU references: independent_tasks/<row>/datasets:D/elements:E.
constexpr pattern_sweep<task_point, task_case> reference_sweep{.points = sizes, .axes = size_axes};

// The process variants: every size warm, then the seed's size cold, variant by variant, so that
// consecutive warm rows share the session's pool.
std::vector<std::pair<task_point, start>> process_steps(const sweep_settings& settings,
                                                        compute_target) {
  std::vector<std::pair<task_point, start>> steps;
  for (const auto& at : sizes(settings))
    steps.emplace_back(at, start::warm);
  for (const auto& at : sizes(settings)) {
    if (is_default_size(settings, at)) steps.emplace_back(at, start::cold);
  }
  return steps;
}

// A pool on the device starts a CUDA context per worker, and the driver creates contexts largely
// one after another: each cold sample of a device pool costs more than the rest of its family.
// The default profile measures the device pools warm (their start paid once, untimed) and leaves
// their cold starts to the full profile; the host pools' cold rows stay.
bool process_row_runs(const sweep_settings& settings, const task_row& row, const task_point&,
                      compute_target target, start how) {
  const bool cold_device_pool = how == start::cold && target == compute_target::device;
  return is_process_row(row) && !(cold_device_pool && settings.profile == sweep_profile::standard);
}

name_axes process_axes(const task_point& at, compute_target target, std::optional<start> how) {
  return {{"compute", std::string(compute_target_name(target))},
          {"datasets", std::to_string(at.datasets)},
          {"elements", std::to_string(at.elements)},
          {"start", std::string(start_name(how.value_or(start::warm)))}};
}

// Each cold run of seed starts a pool of 100 workers (on the device, 100 contexts): a fixed small
// count keeps the family's run short.
int cold_iterations(const sweep_settings& settings, const task_point&) {
  return settings.smoke ? 1 : 3;
}

constexpr pattern_sweep<task_point, task_case> process_sweep{.rows = family_rows::by_target,
                                                             .axes = process_axes,
                                                             .cold_samples = cold_iterations,
                                                             .rows_outermost = true,
                                                             .row_runs_at = process_row_runs,
                                                             .steps = process_steps};

// The in-process device variants, each with its data resident and on the host, size by size.
std::vector<task_point> located_sizes(const sweep_settings& settings) {
  std::vector<task_point> points;
  for (const auto& at : sizes(settings)) {
    for (const auto where : {data_location::resident, data_location::host})
      points.push_back({at.datasets, at.elements, where});
  }
  return points;
}

bool device_row_runs(const sweep_settings&, const task_row& row, const task_point&, compute_target,
                     start) {
  return !is_process_row(row) && row.targets.device;
}

bool same_size(const task_point& first, const task_point& next) {
  return first.datasets == next.datasets && first.elements == next.elements;
}

name_axes located_axes(const task_point& at, compute_target target, std::optional<start> how) {
  auto axes = size_axes(at, target, how);
  axes.insert(axes.begin(), {"data", std::string(data_location_name(at.where))});
  return axes;
}

constexpr pattern_sweep<task_point, task_case> device_sweep{.points = located_sizes,
                                                            .axes = located_axes,
                                                            .rows_outermost = true,
                                                            .row_runs_at = device_row_runs,
                                                            .same_group = same_size};

}  // namespace
}  // namespace independent_tasks_sweep

const pattern_benchmarks<task_point, task_case>& independent_tasks_benchmarks() {
  static const pattern_benchmarks<task_point, task_case> made{
      .spec = {.pattern = "independent_tasks",
               .table = independent_tasks_variants(),
               .make_case = make_task_case,
               .traffic =
                   [](const task_point& at) {
                     const auto elements = static_cast<double>(at.datasets * at.elements);
                     return std::pair{elements * sizeof(float), elements};
                   }},
      .families = {{.name = "cpu",
                    .target = compute_target::host_stand_in,
                    .sweeps = {independent_tasks_sweep::reference_sweep,
                               independent_tasks_sweep::process_sweep}},
                   {.name = "gpu",
                    .min_gpus = 1,
                    .target = compute_target::device,
                    .sweeps = {independent_tasks_sweep::process_sweep,
                               independent_tasks_sweep::device_sweep}}}};
  return made;
}

}  // namespace handoff::patterns::independent_tasks

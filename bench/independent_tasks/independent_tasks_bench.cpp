// independent_tasks (seed 001 example 2): 100 independent datasets of 10k floats, each reduced to
// its sum of squares. The seed hands each dataset to its own process with its own CUDA context;
// the article calls that inefficient, and these rows measure by how much: against a pool sized to
// the cores, k streams in one process, one segmented reduction, and one CUDA graph. The variants
// are patterns/independent_tasks' table; this file declares the points they run at and their
// names, as three sweeps (sweep_registrar.hpp registers every row of the table over them).
//
// Families: "independent_tasks/cpu" (no GPU: the CPU references, and the process variants with the
// host stand-in) and "independent_tasks/gpu" (the process variants on the device, and the
// in-process device variants). Names:
//   independent_tasks/<cpu reference>/datasets:D/elements:E
//   independent_tasks/<process variant>/compute:<device|host>/datasets:D/elements:E/start:<s>
//   independent_tasks/<device variant>/data:<resident|host>/datasets:D/elements:E

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/sweep_registrar.hpp"
#include "handoff/patterns/independent_tasks/task_worker.hpp"
#include "handoff/patterns/independent_tasks/variants.hpp"
#include "handoff/transport/process/worker_role.hpp"

namespace handoff::bench::independent_tasks {
namespace {

namespace tasks = patterns::independent_tasks;
using patterns::compute_target;
using tasks::task_case;
using tasks::task_point;

HANDOFF_WORKER_ROLE(tasks::task_worker_role, tasks::run_task_worker);

constexpr std::size_t seed_datasets = 100;
constexpr std::size_t seed_elements = 10'000;

// Made when first asked, once main has started: a table's rows may be initialised before main
// in any order.
const pattern_spec<task_point, task_case>& spec() {
  static const pattern_spec<task_point, task_case> made{
      .pattern = "independent_tasks",
      .table = tasks::independent_tasks_variants(),
      .make_case = tasks::make_task_case,
      .traffic = [](const task_point& at) {
        const auto elements = static_cast<double>(at.datasets * at.elements);
        return std::pair{elements * sizeof(float), elements};
      }};
  return made;
}

// The seed's size and ten times its datasets' length, within --handoff-max-elements in all. A smoke
// run uses 10 datasets of 1027 (a length no kernel tile divides).
std::vector<task_point> sizes(const bench_config& config) {
  if (config.smoke) return {{10, 1027}};
  std::vector<task_point> points;
  for (const std::size_t elements : {seed_elements, 10 * seed_elements}) {
    if (static_cast<std::uint64_t>(seed_datasets * elements) > config.max_elements) break;
    // Each size starts its pools anew (the seed's: 100 processes, on the device each with a
    // context, about half a minute): the default profile measures the seed's size only.
    if (elements != seed_elements && config.profile != bench_profile::full) break;
    points.push_back({seed_datasets, elements});
  }
  return points;
}

// Cold rows run at the seed's size (or the smoke size) only.
bool is_default_size(const bench_config& config, const task_point& at) {
  return config.smoke || at.elements == seed_elements;
}

bool is_process_row(const tasks::task_row& row) {
  return row.cold != patterns::cold_kind::none;
}

name_axes size_axes(const task_point& at, compute_target, std::optional<start>) {
  return {{"datasets", std::to_string(at.datasets)}, {"elements", std::to_string(at.elements)}};
}

// The CPU references: independent_tasks/<row>/datasets:D/elements:E.
constexpr pattern_sweep<task_point, task_case> reference_sweep{
    .spec = spec, .points = sizes, .axes = size_axes};

// The process variants: every size warm, then the seed's size cold, variant by variant, so that
// consecutive warm rows share the session's pool.
std::vector<std::pair<task_point, start>> process_steps(const bench_config& config,
                                                        compute_target) {
  std::vector<std::pair<task_point, start>> steps;
  for (const auto& at : sizes(config))
    steps.emplace_back(at, start::warm);
  for (const auto& at : sizes(config)) {
    if (is_default_size(config, at)) steps.emplace_back(at, start::cold);
  }
  return steps;
}

// The recipe on the device: its pool has a process per dataset, each cold sample starts them all
// with a CUDA context each, as long as the rest of the family; the default profile leaves its cold
// start to the full profile (its warm pool, measured, pays the same start-up once).
bool process_row_runs(const bench_config& config, const tasks::task_row& row, const task_point&,
                      compute_target target, start how) {
  const bool starts_a_context_per_task = row.recipe && target == compute_target::device;
  return is_process_row(row) && !(how == start::cold && starts_a_context_per_task &&
                                  config.profile == bench_profile::standard);
}

name_axes process_axes(const task_point& at, compute_target target, std::optional<start> how) {
  return {{"compute", std::string(patterns::compute_target_name(target))},
          {"datasets", std::to_string(at.datasets)},
          {"elements", std::to_string(at.elements)},
          {"start", how == start::cold ? "cold" : "warm"}};
}

// Each cold run of seed starts a pool of 100 workers (on the device, 100 contexts): a fixed small
// count keeps the family's run short.
int cold_iterations(const bench_config& config, const task_point&) {
  return config.smoke ? 1 : 3;
}

constexpr pattern_sweep<task_point, task_case> process_sweep{.spec = spec,
                                                             .rows = family_rows::by_target,
                                                             .axes = process_axes,
                                                             .cold_samples = cold_iterations,
                                                             .rows_outermost = true,
                                                             .row_runs_at = process_row_runs,
                                                             .steps = process_steps};

// The in-process device variants, each with its data resident and on the host, size by size.
std::vector<task_point> located_sizes(const bench_config& config) {
  std::vector<task_point> points;
  for (const auto& at : sizes(config)) {
    for (const auto where : {tasks::data_location::resident, tasks::data_location::host})
      points.push_back({at.datasets, at.elements, where});
  }
  return points;
}

bool device_row_runs(const bench_config&, const tasks::task_row& row, const task_point&,
                     compute_target, start) {
  return !is_process_row(row) && row.targets.device;
}

bool same_size(const task_point& first, const task_point& next) {
  return first.datasets == next.datasets && first.elements == next.elements;
}

name_axes located_axes(const task_point& at, compute_target target, std::optional<start> how) {
  auto axes = size_axes(at, target, how);
  axes.insert(axes.begin(), {"data", std::string(tasks::data_location_name(at.where))});
  return axes;
}

constexpr pattern_sweep<task_point, task_case> device_sweep{.spec = spec,
                                                            .points = located_sizes,
                                                            .axes = located_axes,
                                                            .rows_outermost = true,
                                                            .row_runs_at = device_row_runs,
                                                            .same_group = same_size};

void register_cpu_family(const bench_environment& environment) {
  register_sweep(reference_sweep, environment, compute_target::host_stand_in);
  register_sweep(process_sweep, environment, compute_target::host_stand_in);
}

void register_gpu_family(const bench_environment& environment) {
  register_sweep(process_sweep, environment, compute_target::device);
  register_sweep(device_sweep, environment, compute_target::device);
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("independent_tasks/cpu", 0, register_cpu_family);
HANDOFF_BENCHMARK_FAMILY("independent_tasks/gpu", 1, register_gpu_family);

}  // namespace handoff::bench::independent_tasks

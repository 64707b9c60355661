// independent_tasks (seed 001 example 2): 100 independent datasets of 10k floats, each reduced to
// its sum of squares. The seed hands each dataset to its own process with its own CUDA context;
// the article calls that inefficient, and these rows measure by how much: against a pool sized to
// the cores, k streams in one process, one segmented reduction, and one CUDA graph. The variants
// are patterns/independent_tasks' table; this file names the points they run at.
//
// Families: "independent_tasks/cpu" (no GPU: the CPU references, and the process variants with the
// host stand-in) and "independent_tasks/gpu" (the process variants on the device, and the
// in-process device variants). Names:
//   independent_tasks/<cpu reference>/datasets:D/elements:E
//   independent_tasks/<process variant>/compute:<device|host>/datasets:D/elements:E/start:<s>
//   independent_tasks/<device variant>/data:<resident|host>/datasets:D/elements:E

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
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

struct task_size {
  std::size_t datasets = 0;
  std::size_t elements = 0;  // per dataset
  bool is_default = false;   // the seed's 100 x 10k (or the smoke size): cold rows run here only
};

// The seed's size and ten times its datasets' length, within --handoff-max-elements in all. A smoke
// run uses 10 datasets of 1027 (a length no kernel tile divides).
std::vector<task_size> task_sizes(const bench_config& config) {
  if (config.smoke) return {{10, 1027, true}};
  std::vector<task_size> sizes;
  for (const std::size_t elements : {seed_elements, 10 * seed_elements}) {
    if (static_cast<std::uint64_t>(seed_datasets * elements) > config.max_elements) break;
    // Each size starts its pools anew (the seed's: 100 processes, on the device each with a
    // context, about half a minute): the default profile measures the seed's size only.
    if (elements != seed_elements && config.profile != bench_profile::full) break;
    sizes.push_back({seed_datasets, elements, elements == seed_elements});
  }
  return sizes;
}

std::vector<std::pair<std::string, std::string>> size_axes(task_size size) {
  return {{"datasets", std::to_string(size.datasets)}, {"elements", std::to_string(size.elements)}};
}

bool is_process_row(const tasks::task_row& row) {
  return row.cold != patterns::cold_kind::none;
}

void register_cpu_references(const bench_environment& environment) {
  for (const auto& size : task_sizes(environment.config)) {
    for (const auto& row : spec().table) {
      if (!row.targets.cpu) continue;
      register_variant(spec(), row, {size.datasets, size.elements}, compute_target::host_stand_in,
                       start::warm,
                       benchmark_name("independent_tasks", std::string(row.name), size_axes(size)));
    }
  }
}

// Each cold run of seed starts a pool of 100 workers (on the device, 100 contexts): a fixed small
// count keeps the family's run short.
int cold_iterations(const bench_config& config) {
  return config.smoke ? 1 : 3;
}

// The recipe on the device: its pool has a process per dataset, each cold sample starts them all
// with a CUDA context each, as long as the rest of the family; the default profile leaves its cold
// start to the full profile (its warm pool, measured, pays the same start-up once).
bool starts_a_context_per_task(const tasks::task_row& row, compute_target target) {
  return row.recipe && target == compute_target::device;
}

// Variant-major, warm rows first: consecutive warm rows share the session's pool.
void register_process_variants(const bench_environment& environment, compute_target target) {
  for (const auto& row : spec().table) {
    if (!is_process_row(row) || !row.targets.supports(target)) continue;
    for (const bool cold : {false, true}) {
      for (const auto& size : task_sizes(environment.config)) {
        if (cold && !size.is_default) continue;
        if (cold && starts_a_context_per_task(row, target) &&
            environment.config.profile == bench_profile::standard) {
          continue;
        }
        auto axes = size_axes(size);
        axes.insert(axes.begin(), {"compute", std::string(patterns::compute_target_name(target))});
        axes.emplace_back("start", cold ? "cold" : "warm");
        register_variant(spec(), row, {size.datasets, size.elements}, target,
                         cold ? start::cold : start::warm,
                         benchmark_name("independent_tasks", std::string(row.name), axes),
                         cold_iterations(environment.config));
      }
    }
  }
}

void register_device_variants(const bench_environment& environment) {
  for (const auto& size : task_sizes(environment.config)) {
    for (const auto& row : spec().table) {
      if (is_process_row(row) || !row.targets.device) continue;
      for (const auto where : {tasks::data_location::resident, tasks::data_location::host}) {
        auto axes = size_axes(size);
        axes.insert(axes.begin(), {"data", std::string(tasks::data_location_name(where))});
        register_variant(spec(), row, {size.datasets, size.elements, where}, compute_target::device,
                         start::warm,
                         benchmark_name("independent_tasks", std::string(row.name), axes));
      }
    }
  }
}

void register_cpu_family(const bench_environment& environment) {
  register_cpu_references(environment);
  register_process_variants(environment, compute_target::host_stand_in);
}

void register_gpu_family(const bench_environment& environment) {
  register_process_variants(environment, compute_target::device);
  register_device_variants(environment);
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("independent_tasks/cpu", 0, register_cpu_family);
HANDOFF_BENCHMARK_FAMILY("independent_tasks/gpu", 1, register_gpu_family);

}  // namespace handoff::bench::independent_tasks

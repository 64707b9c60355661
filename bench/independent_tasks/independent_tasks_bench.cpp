// independent_tasks (seed 001 example 2): 100 independent datasets of 10k floats, each reduced to
// its sum of squares. The seed hands each dataset to its own process with its own CUDA context;
// the article calls that inefficient, and these rows measure by how much: against a pool sized to
// the cores, k streams in one process, one segmented reduction, and one CUDA graph.

#include <cstdint>

#include "../harness/family_registry.hpp"
#include "handoff/patterns/independent_tasks/task_worker.hpp"
#include "handoff/patterns/process/worker_role.hpp"
#include "task_benchmarks.hpp"

namespace handoff::bench {
namespace {

namespace tasks = patterns::independent_tasks;

HANDOFF_WORKER_ROLE(tasks::task_worker_role, tasks::run_task_worker);

constexpr std::size_t seed_datasets = 100;
constexpr std::size_t seed_elements = 10'000;

void register_cpu_family(const bench_environment& environment) {
  register_cpu_references(environment);
  register_process_variants(environment, patterns::compute_target::host_stand_in);
}

void register_gpu_family(const bench_environment& environment) {
  register_process_variants(environment, patterns::compute_target::device);
  register_device_variants(environment);
}

}  // namespace

// The seed's size and ten times its datasets' length, within --handoff-max-elements in all. A smoke
// run uses 10 datasets of 1027 (a length no kernel tile divides).
std::vector<task_size> task_sizes(const bench_config& config) {
  if (config.smoke) return {{10, 1027, true}};
  std::vector<task_size> sizes;
  for (const std::size_t elements : {seed_elements, 10 * seed_elements}) {
    if (static_cast<std::uint64_t>(seed_datasets * elements) > config.max_elements) break;
    sizes.push_back({seed_datasets, elements, elements == seed_elements});
  }
  return sizes;
}

HANDOFF_BENCHMARK_FAMILY("independent_tasks/cpu", 0, register_cpu_family);
HANDOFF_BENCHMARK_FAMILY("independent_tasks/gpu", 1, register_gpu_family);

}  // namespace handoff::bench

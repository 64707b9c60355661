#pragma once
// independent_tasks' benchmark rows, registered by the two families in independent_tasks_bench.cpp:
// "independent_tasks/cpu" (no GPU: the CPU references, and the process variants with the host
// stand-in) and "independent_tasks/gpu" (the process variants on the device, and the in-process
// device variants).

#include <cstddef>
#include <vector>

#include "../harness/bench_config.hpp"
#include "handoff/patterns/compute_target.hpp"

namespace handoff::bench {

struct task_size {
  std::size_t datasets = 0;
  std::size_t elements = 0;  // per dataset
  bool is_default = false;   // the seed's 100 x 10k (or the smoke size): cold rows run here only
};

std::vector<task_size> task_sizes(const bench_config& config);

void register_cpu_references(const bench_environment& environment);
void register_process_variants(const bench_environment& environment,
                               patterns::compute_target target);
void register_device_variants(const bench_environment& environment);

}  // namespace handoff::bench

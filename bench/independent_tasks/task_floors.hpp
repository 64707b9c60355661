#pragma once
// What bounds each independent_tasks variant, priced by this run's ceilings.

#include <benchmark/benchmark.h>

#include <cstddef>

#include "handoff/patterns/independent_tasks/device_variants.hpp"
#include "task_inputs.hpp"

namespace handoff::bench {

enum class device_variant { batched, streams, graph };

// Resident: every input byte read once from device memory (hbm_device_copy counts read plus
// written bytes, and a reduction writes next to nothing), plus the launches: one for batched and
// graph, one per dataset for streams. Host form: also every input byte over PCIe from pinned
// memory (batched also copies its segment offsets), and the sums' copy back, which is latency, not
// bandwidth: one kernel_launch_sync.
void add_device_variant_floor(benchmark::State& state, const task_inputs& inputs,
                              device_variant variant,
                              patterns::independent_tasks::data_location where);

struct process_floor_facts {
  std::size_t workers = 0;
  bool on_device = true;
  bool cold = false;
  // Host stand-in only: the seconds per batch the workers spent summing, over all tasks.
  double stand_in_compute_seconds = 0;
};

// Warm, device: every dataset crosses a pipe (the coordinator writes them all through one thread)
// and PCIe from pageable memory, and each task pays one synchronised launch; the workers run side
// by side, so the critical path holds ceil(datasets / workers) of those. Cold: plus one
// process_start_with_context, as if every worker started at once. Host stand-in: the pipe, plus the
// workers' summing spread over the cores the machine has.
void add_process_floor(benchmark::State& state, const task_inputs& inputs,
                       const process_floor_facts& facts);

}  // namespace handoff::bench

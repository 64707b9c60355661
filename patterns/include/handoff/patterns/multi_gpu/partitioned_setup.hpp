#pragma once
// One configuration of the multi_gpu pattern without its scope: the seeded input, its plan, the
// CPU reference's answer, and the devices with the input resident. Every variant and scope of one
// configuration shares it, as consecutive benchmarks do, so the 2^28-element input is drawn,
// uploaded and checked against the reference once, not once per row.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "handoff/patterns/multi_gpu/partition.hpp"
#include "handoff/patterns/multi_gpu/partitioned_devices.hpp"
#include "handoff/reference/host_vector.hpp"
#include "handoff/reference/partitioned_elementwise.hpp"
#include "handoff/user_kernel.hpp"

namespace handoff::patterns::multi_gpu {

struct partitioned_config {
  std::string workload = "scale_by_two";  // a registered name (workload_registry.hpp)
  int gpus = 1;
  partitioner partition = partitioner::even;
  std::size_t elements = 0;
  std::size_t round_robin_chunk = 0;
  bool operator==(const partitioned_config&) const = default;
};

struct partitioned_setup {
  partitioned_config config;
  user_kernel kernel;
  std::uint32_t max_ulp = 0;  // the workload's tolerance, for every verification of this setup
  std::vector<double> device_throughputs;  // what the weighted partitioner divided by
  partition_plan plan;
  std::vector<float> input;  // pageable, as the article's numpy array
  reference::host_vector<float>
      expected;  // reference::apply_partitioned with the workload's reference
  std::unique_ptr<partitioned_devices> devices;
};

// The plan of config. The weighted partitioner's throughputs are measured once per workload and
// GPU count, the way a user would calibrate before a long run, and kept for the process.
partition_plan plan_of(const partitioned_config& config);

// Every device of the plan in this process; while one is alive, asking for the same config again
// gives the same one. An unregistered workload throws unknown_workload_error.
std::shared_ptr<partitioned_setup> shared_setup_for(const partitioned_config& config);

// The plan's devices `ranks` only, on CUDA devices `ordinals` (an MPI rank: its own). Weighted
// plans need every device's throughput, so they are refused here (std::invalid_argument).
std::shared_ptr<partitioned_setup> make_rank_setup(const partitioned_config& config,
                                                   std::span<const int> ranks,
                                                   std::span<const int> ordinals);

}  // namespace handoff::patterns::multi_gpu

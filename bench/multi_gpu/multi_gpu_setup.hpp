#pragma once
// One configuration of the multi_gpu pattern, made once and kept while consecutive benchmarks
// share it (every variant and scope of one workload, GPU count, partitioner and size): the seeded
// input, its plan, the devices with the input resident, the CPU reference's answer, and each
// gather, made when a benchmark first asks for it.

#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "../harness/bench_config.hpp"
#include "handoff/patterns/multi_gpu/gathers.hpp"
#include "handoff/patterns/multi_gpu/partition.hpp"
#include "handoff/patterns/multi_gpu/seed_host_gather.hpp"
#include "handoff/reference/partitioned_elementwise.hpp"

namespace handoff::bench {

struct multi_gpu_config {
  reference::partitioned_operation workload = reference::partitioned_operation::scale_by_two;
  int gpus = 1;
  patterns::multi_gpu::partitioner partitioner = patterns::multi_gpu::partitioner::even;
  std::size_t elements = 0;
  std::size_t round_robin_chunk = 0;
  auto operator<=>(const multi_gpu_config&) const = default;
};

enum class gather_kind { none, host_seed, host_pinned, peer, nccl };

struct multi_gpu_setup {
  multi_gpu_config config;
  user_kernel kernel;
  std::vector<double> device_throughputs;  // what the weighted partitioner divided by
  patterns::multi_gpu::partition_plan plan;
  std::vector<float> input;     // pageable, as the article's numpy array
  std::vector<float> expected;  // reference::apply_partitioned
  std::unique_ptr<patterns::multi_gpu::partitioned_devices> devices;

  // The gather of kind (none: null); made on first use and kept with the configuration.
  patterns::multi_gpu::device_gather* device_gather_for(gather_kind kind);
  patterns::multi_gpu::seed_host_gather& seed_gather();
  // A gather made outside, such as an MPI rank's NCCL gather over its own communicator.
  void adopt_gather(gather_kind kind, std::unique_ptr<patterns::multi_gpu::device_gather> gather);

 private:
  std::map<gather_kind, std::unique_ptr<patterns::multi_gpu::device_gather>> gathers_;
  std::unique_ptr<patterns::multi_gpu::seed_host_gather> seed_gather_;
};

// Every device of the plan in this process, cached while consecutive benchmarks share config.
multi_gpu_setup& multi_gpu_setup_for(const multi_gpu_config& config);

// The plan's devices `ranks` only, on CUDA devices `ordinals` (an MPI rank: its own). Weighted
// plans need every device's throughput, so they are made by multi_gpu_setup_for only.
std::unique_ptr<multi_gpu_setup> make_multi_gpu_setup(const multi_gpu_config& config,
                                                      std::span<const int> ranks,
                                                      std::span<const int> ordinals);

// Why this build cannot run nccl_allgather (not built with NCCL, or the library does not load);
// empty when it can.
std::string nccl_unavailable_reason();

}  // namespace handoff::bench

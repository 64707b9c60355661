#include "handoff/patterns/multi_gpu/partitioned_setup.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "handoff/patterns/multi_gpu/workload_registry.hpp"
#include "handoff/patterns/multi_gpu/workloads.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

constexpr std::uint64_t input_seed = 0x004D;

const std::vector<double>& throughputs_for(const std::string& workload, int gpus) {
  static std::map<std::pair<std::string, int>, std::vector<double>> measured;
  auto found = measured.find({workload, gpus});
  if (found == measured.end()) {
    found = measured
                .emplace(std::pair{workload, gpus},
                         measure_device_throughputs(find_workload(workload).kernel, gpus))
                .first;
  }
  return found->second;
}

std::shared_ptr<partitioned_setup> make_setup(const partitioned_config& config,
                                              std::span<const int> ranks,
                                              std::span<const int> ordinals) {
  auto setup = std::make_shared<partitioned_setup>();
  const workload& work = find_workload(config.workload);
  setup->config = config;
  setup->kernel = work.kernel;
  setup->max_ulp = work.max_ulp;
  if (config.partition == partitioner::weighted) {
    setup->device_throughputs = throughputs_for(config.workload, config.gpus);
  }
  setup->plan = plan_of(config);
  setup->input.resize(config.elements);
  reference::fill_seeded_nonzero(setup->input, input_seed);
  setup->expected.resize(config.elements);
  const auto ranges = value_ranges_of(setup->plan);
  reference::apply_partitioned(work.reference, setup->input, ranges, setup->expected);
  setup->devices = ranks.empty() ? std::make_unique<partitioned_devices>(setup->plan, setup->input)
                                 : std::make_unique<partitioned_devices>(setup->plan, ranks,
                                                                         ordinals, setup->input);
  setup->devices->load_kernel(setup->kernel);
  return setup;
}

}  // namespace

partition_plan plan_of(const partitioned_config& config) {
  switch (config.partition) {
    case partitioner::even:
      return partition_even(config.elements, config.gpus);
    case partitioner::round_robin:
      return partition_round_robin(config.elements, config.gpus, config.round_robin_chunk);
    case partitioner::weighted:
      return partition_weighted(config.elements, throughputs_for(config.workload, config.gpus));
  }
  throw std::invalid_argument("unknown partitioner");
}

std::shared_ptr<partitioned_setup> shared_setup_for(const partitioned_config& config) {
  // Held by the cases and sessions that use it, not here: the last user frees it (and its device
  // memory, while the CUDA runtime is still up).
  static std::weak_ptr<partitioned_setup> latest;
  if (auto live = latest.lock(); live && live->config == config) return live;
  auto made = make_setup(config, {}, {});
  latest = made;
  return made;
}

std::shared_ptr<partitioned_setup> make_rank_setup(const partitioned_config& config,
                                                   std::span<const int> ranks,
                                                   std::span<const int> ordinals) {
  if (config.partition == partitioner::weighted) {
    throw std::invalid_argument("a weighted plan needs every device's throughput in one process");
  }
  if (ranks.empty()) throw std::invalid_argument("make_rank_setup: no rank given");
  return make_setup(config, ranks, ordinals);
}

}  // namespace handoff::patterns::multi_gpu

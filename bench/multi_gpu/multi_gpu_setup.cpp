#include "multi_gpu_setup.hpp"

#include <stdexcept>

#include "../harness/latest_cache.hpp"
#include "handoff/patterns/multi_gpu/workloads.hpp"
#include "handoff/reference/inputs.hpp"
#ifdef HANDOFF_HAVE_NCCL
#include "handoff/patterns/multi_gpu/nccl_gather.hpp"
#include "handoff/patterns/multi_gpu/nccl_library.hpp"
#endif

namespace handoff::bench {
namespace {

using namespace patterns::multi_gpu;

constexpr std::uint64_t input_seed = 0x004D;

// The weighted partitioner's throughputs are measured once per workload and GPU count, the way a
// user would calibrate before a long run.
const std::vector<double>& throughputs_for(const user_kernel& kernel,
                                           reference::partitioned_operation workload, int gpus) {
  static std::map<std::pair<reference::partitioned_operation, int>, std::vector<double>> measured;
  auto found = measured.find({workload, gpus});
  if (found == measured.end()) {
    found =
        measured.emplace(std::pair{workload, gpus}, measure_device_throughputs(kernel, gpus)).first;
  }
  return found->second;
}

partition_plan plan_for(const multi_gpu_config& config, const std::vector<double>& throughputs) {
  switch (config.partitioner) {
    case partitioner::even:
      return partition_even(config.elements, config.gpus);
    case partitioner::round_robin:
      return partition_round_robin(config.elements, config.gpus, config.round_robin_chunk);
    case partitioner::weighted:
      return partition_weighted(config.elements, throughputs);
  }
  throw std::invalid_argument("unknown partitioner");
}

std::unique_ptr<multi_gpu_setup> make_setup(const multi_gpu_config& config,
                                            std::span<const int> ranks,
                                            std::span<const int> ordinals) {
  auto setup = std::make_unique<multi_gpu_setup>();
  setup->config = config;
  setup->kernel = kernel_for(config.workload);
  if (config.partitioner == partitioner::weighted) {
    setup->device_throughputs = throughputs_for(setup->kernel, config.workload, config.gpus);
  }
  setup->plan = plan_for(config, setup->device_throughputs);
  setup->input.resize(config.elements);
  reference::fill_seeded_nonzero(setup->input, input_seed);
  setup->expected.resize(config.elements);
  const auto ranges = value_ranges_of(setup->plan);
  reference::apply_partitioned(config.workload, setup->input, ranges, setup->expected);
  setup->devices = ranks.empty() ? std::make_unique<partitioned_devices>(setup->plan, setup->input)
                                 : std::make_unique<partitioned_devices>(setup->plan, ranks,
                                                                         ordinals, setup->input);
  return setup;
}

}  // namespace

device_gather* multi_gpu_setup::device_gather_for(gather_kind kind) {
  if (kind == gather_kind::none) return nullptr;
  if (kind == gather_kind::host_seed) {
    throw std::invalid_argument("host_gather is synchronous; use seed_gather()");
  }
  auto& gather = gathers_[kind];
  if (!gather) {
    switch (kind) {
      case gather_kind::host_pinned:
        gather = make_host_pinned_gather(*devices);
        break;
      case gather_kind::peer:
        gather = make_peer_gather(*devices);
        break;
      case gather_kind::nccl:
#ifdef HANDOFF_HAVE_NCCL
        gather = make_nccl_gather(*devices, nccl_communicators::for_devices(*devices));
        break;
#else
        throw std::runtime_error("nccl_allgather: this build has no NCCL");
#endif
      default:
        break;
    }
  }
  return gather.get();
}

seed_host_gather& multi_gpu_setup::seed_gather() {
  if (!seed_gather_) seed_gather_ = std::make_unique<seed_host_gather>(*devices, input);
  return *seed_gather_;
}

void multi_gpu_setup::adopt_gather(gather_kind kind, std::unique_ptr<device_gather> gather) {
  gathers_[kind] = std::move(gather);
}

multi_gpu_setup& multi_gpu_setup_for(const multi_gpu_config& config) {
  static latest_cache<multi_gpu_config, multi_gpu_setup> cache;
  return cache.get(config, [&] { return make_setup(config, {}, {}); });
}

std::unique_ptr<multi_gpu_setup> make_multi_gpu_setup(const multi_gpu_config& config,
                                                      std::span<const int> ranks,
                                                      std::span<const int> ordinals) {
  if (config.partitioner == partitioner::weighted) {
    throw std::invalid_argument("a weighted plan needs every device's throughput in one process");
  }
  return make_setup(config, ranks, ordinals);
}

std::string nccl_unavailable_reason() {
#ifdef HANDOFF_HAVE_NCCL
  try {
    (void)patterns::multi_gpu::nccl();
    return {};
  } catch (const std::exception& error) {
    return error.what();
  }
#else
  return "this build has no NCCL (configure did not find nccl.h and libnccl)";
#endif
}

}  // namespace handoff::bench

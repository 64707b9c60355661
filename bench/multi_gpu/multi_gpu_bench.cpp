// multi_gpu/<variant>/workload:<w>/gpus:<n>/partitioner:<p>/elements:<e>/scope:<s>: seed 004, an
// array split over GPUs, a user kernel (the article's RawKernel) run on each part, and the
// results gathered. The variants are the gathers:
//   kernel_only         no gather: the results stay on their devices (the scaling figure);
//   host_gather         the article's loop, bugs fixed (seed_host_gather.hpp names them);
//   host_gather_pinned  every device copies straight into one pinned array, all at once;
//   p2p_gather          every device copies into GPU 0 over the peer link;
//   nccl_allgather      every device ends with the whole array (ncclAllGather, or grouped
//                       broadcasts for unequal parts).
// Scopes: gather (the gather alone, its bandwidth against the peer or PCIe ceiling), resident
// (kernel and gather, the input already on the devices) and from_host (each part uploaded from
// pinned memory first; host_gather uploads from pageable memory, as the article does).
//
// Every run is verified, every copy of the result (each device's, for NCCL), against the CPU
// reference, exactly. Counters beyond the harness's: gpus, gpu<d>_items_per_second (each device's
// elements over its busy time), per_gpu_items_per_second (the aggregate over the GPU count),
// gather_bytes_per_second (scope gather), algbw and busbw (NCCL, defined in the README),
// all_gather_collective (1: ncclAllGather; 0: grouped broadcasts), weight_gpu<d> (the weighted
// partitioner's share). Scaling efficiency against gpus:1 is added by the harness at the end.

#include <string>
#include <vector>

#include "../harness/family_registry.hpp"
#include "../harness/measure.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/traffic.hpp"
#include "handoff/device_discovery.hpp"
#include "handoff/patterns/multi_gpu/peer_access.hpp"
#include "handoff/reference/verify.hpp"
#include "multi_gpu_counters.hpp"
#include "multi_gpu_floors.hpp"
#include "multi_gpu_setup.hpp"

namespace handoff::bench {
namespace {

using namespace patterns::multi_gpu;

// The asynchronous variants: one run is everything between two events on GPU 0's stream.
void device_gather_row(benchmark::State& state, const multi_gpu_config& config, gather_kind kind,
                       run_scope scope) {
  auto& setup = multi_gpu_setup_for(config);
  auto& devices = *setup.devices;
  device_gather* gather = setup.device_gather_for(kind);
  if (scope == run_scope::gather) {
    enqueue_partitioned_run(devices, setup.kernel, nullptr, run_scope::resident);
    devices.synchronize();
  }
  std::vector<double> busy(devices.slots().size(), 0.0);
  const double seconds = measure_gpu_region(
      state, devices.origin(),
      [&] {
        if (gather != nullptr) gather->poison();
        if (scope != run_scope::gather) devices.poison_outputs();
        if (scope == run_scope::from_host) devices.poison_inputs();
      },
      [&] { enqueue_partitioned_run(devices, setup.kernel, gather, scope); },
      [&] {
        const auto run_busy = devices.busy_seconds();
        for (std::size_t d = 0; d < busy.size(); ++d)
          busy[d] += run_busy[d];
      });
  devices.synchronize();
  const auto runs = static_cast<double>(state.iterations());
  verify_gathered_or_local(state, setup, gather);
  add_throughput_counters(state, setup, busy, runs, seconds);
  add_gather_counters(state, setup, kind, scope, seconds, runs);
  add_multi_gpu_floor(state, setup.plan, kind, scope);
}

// The article's loop is synchronous, so the wall clock times it.
void seed_gather_row(benchmark::State& state, const multi_gpu_config& config, run_scope scope) {
  auto& setup = multi_gpu_setup_for(config);
  auto& devices = *setup.devices;
  auto& seed = setup.seed_gather();
  if (scope == run_scope::gather) {
    enqueue_partitioned_run(devices, setup.kernel, nullptr, run_scope::resident);
    devices.synchronize();
  }
  const double seconds = measure_wall_region(
      state,
      [&] {
        seed.poison();
        if (scope != run_scope::gather) devices.poison_outputs();
        if (scope == run_scope::from_host) devices.poison_inputs();
      },
      [&] { seed.run(setup.kernel, scope); });
  const auto runs = static_cast<double>(state.iterations());
  record_verification(state, reference::verify_elementwise(setup.expected, seed.result(), 0));
  add_throughput_counters(state, setup, {}, runs, seconds);
  add_multi_gpu_floor(state, setup.plan, gather_kind::host_seed, scope);
}

struct variant_entry {
  const char* name;
  gather_kind gather;
};

constexpr variant_entry kernel_only{"kernel_only", gather_kind::none};
constexpr variant_entry host_gather{"host_gather", gather_kind::host_seed};
constexpr variant_entry host_gather_pinned{"host_gather_pinned", gather_kind::host_pinned};
constexpr variant_entry p2p_gather{"p2p_gather", gather_kind::peer};
constexpr variant_entry nccl_allgather{"nccl_allgather", gather_kind::nccl};

constexpr std::size_t default_elements = std::size_t{1} << 28;
constexpr std::size_t round_robin_chunk = std::size_t{1} << 22;
// Smoke: not a multiple of 4 or of any GPU count, so tails and uneven shares are covered.
constexpr std::size_t smoke_elements = 4099;
constexpr std::size_t smoke_chunk = 256;

std::size_t headline_elements(const bench_config& config) {
  if (config.smoke) return smoke_elements;
  return std::min<std::size_t>(default_elements, config.max_elements);
}

// The kernel-only scaling curve also runs at 2^24 and 2^26, below the headline size; a smaller
// --handoff-max-elements still leaves the headline row.
std::vector<std::size_t> scaling_sizes(const bench_config& config) {
  const std::size_t headline = headline_elements(config);
  if (config.smoke) return {headline};
  std::vector<std::size_t> sizes;
  for (std::size_t n = std::size_t{1} << 24; n < headline; n *= 4)
    sizes.push_back(n);
  sizes.push_back(headline);
  return sizes;
}

void register_row(const variant_entry& variant, const multi_gpu_config& config, run_scope scope) {
  const auto name = benchmark_name(
      "multi_gpu", variant.name,
      {{"workload", std::string(reference::partitioned_operation_name(config.workload))},
       {"gpus", std::to_string(config.gpus)},
       {"partitioner", std::string(partitioner_name(config.partitioner))},
       {"elements", std::to_string(config.elements)},
       {"scope", std::string(run_scope_name(scope))}});
  const gather_kind gather = variant.gather;
  register_benchmark(name, [config, gather, scope](benchmark::State& state) {
    if (gather == gather_kind::host_seed) {
      seed_gather_row(state, config, scope);
    } else {
      device_gather_row(state, config, gather, scope);
    }
  });
}

multi_gpu_config config_of(const bench_config& bench, reference::partitioned_operation workload,
                           int gpus, partitioner kind, std::size_t elements) {
  return {workload, gpus, kind, elements, bench.smoke ? smoke_chunk : round_robin_chunk};
}

// Configuration-major (GPU count, partitioner, size, workload), so that consecutive benchmarks
// share one setup; within it every variant and scope.
void register_variants(const bench_environment& environment,
                       const std::vector<variant_entry>& gathers) {
  const auto& bench = environment.config;
  const auto scale = reference::partitioned_operation::scale_by_two;
  const auto add_value = reference::partitioned_operation::add_device_value;
  const std::size_t headline = headline_elements(bench);
  for (int gpus = 1; gpus <= environment.gpus.count; ++gpus) {
    for (const auto kind : {partitioner::even, partitioner::round_robin, partitioner::weighted}) {
      const bool even = kind == partitioner::even;
      for (const std::size_t elements : scaling_sizes(bench)) {
        if (!even && elements != headline) continue;
        const auto config = config_of(bench, scale, gpus, kind, elements);
        if (gathers.empty()) {
          register_row(kernel_only, config, run_scope::resident);
          if (even && elements == headline) register_row(kernel_only, config, run_scope::from_host);
          continue;
        }
        if (elements != headline) continue;
        for (const auto& gather : gathers) {
          for (const auto scope : {run_scope::gather, run_scope::resident, run_scope::from_host}) {
            if (even || scope == run_scope::resident) register_row(gather, config, scope);
          }
        }
      }
      if (even) {
        // The second workload: each device adds its own value, so a part run on the wrong device
        // shows in the result.
        const auto config = config_of(bench, add_value, gpus, kind, headline);
        if (gathers.empty()) register_row(kernel_only, config, run_scope::from_host);
        for (const auto& gather : gathers)
          register_row(gather, config, run_scope::from_host);
      }
    }
  }
}

void register_kernel_only(const bench_environment& environment) {
  register_variants(environment, {});
}

void register_host_gathers(const bench_environment& environment) {
  register_variants(environment, {host_gather, host_gather_pinned});
}

void register_p2p_gather(const bench_environment& environment) {
  register_variants(environment, {p2p_gather});
}

void register_nccl_allgather(const bench_environment& environment) {
  register_variants(environment, {nccl_allgather});
}

std::string p2p_unavailable(const bench_environment& environment) {
  const int gpus = environment.gpus.count;
  return peer_access_unavailable_reason(peer_access_matrix(gpus), 0, gpus);
}

std::string nccl_unavailable(const bench_environment&) {
  return nccl_unavailable_reason();
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("multi_gpu/kernel_only", 1, register_kernel_only);
HANDOFF_BENCHMARK_FAMILY("multi_gpu/host_gather", 1, register_host_gathers);
HANDOFF_BENCHMARK_FAMILY("multi_gpu/p2p_gather", 1, register_p2p_gather, p2p_unavailable);
HANDOFF_BENCHMARK_FAMILY("multi_gpu/nccl_allgather", 1, register_nccl_allgather, nccl_unavailable);

}  // namespace handoff::bench

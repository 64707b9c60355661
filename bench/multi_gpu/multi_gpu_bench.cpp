// multi_gpu/<variant>/workload:<w>/gpus:<n>/partitioner:<p>/elements:<e>/scope:<s>: seed 004, an
// array split over GPUs, a user kernel (the article's RawKernel) run on each part, and the
// results gathered. The variants are the gathers:
//   kernel_only         no gather: the results stay on their devices (the scaling figure);
//   kernel_only_threads kernel_only launched from one host thread per device (launch_threads.hpp);
//   kernel_only_host_join kernel_only_threads joined on the host: no device waits for another,
//                       and the run is timed on the host clock (kernel_only_threads.cpp says why);
//   host_gather         the article's loop, bugs fixed (seed_host_gather.hpp names them);
//   host_gather_pinned  every device copies straight into one pinned array, all at once;
//   p2p_gather          every device copies into GPU 0 over the peer link;
//   nccl_allgather      every device ends with the whole array (ncclAllGather, or grouped
//                       broadcasts for unequal parts);
//   nccl_allgather_window the same into NCCL symmetric windows (NCCL 2.27 and later), which NCCL
//                       may gather into with its symmetric kernels, or with its copy engines
//                       under NCCL_CTA_POLICY=2.
// Scopes: gather (the gather alone, its bandwidth against the peer or PCIe ceiling), resident
// (kernel and gather, the input already on the devices) and from_host (each part uploaded from
// pinned memory first; host_gather uploads from pageable memory, as the article does).
//
// The variants, their sessions and floors are the table of patterns/multi_gpu/variants.hpp; the
// driver measures every row. This file is the sweep and the names. The workloads are those
// registered (patterns/multi_gpu/workload_registry.hpp): the article's two, and any a user's file
// in HANDOFF_USER_KERNELS adds. Every run is verified, every copy of the result (each device's,
// for NCCL), against the workload's CPU reference within its tolerance (exactly, for the
// article's). Counters
// beyond the driver's: gpus (here), and the sessions' figures (patterns/multi_gpu/figures.hpp):
// gpu<d>_items_per_second, per_gpu_items_per_second, gather_bytes_per_second, algbw, busbw,
// all_gather_collective, weight_gpu<d>. Scaling efficiency against gpus:1 is added by the harness
// at the end.

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/multi_gpu_size.hpp"
#include "handoff/patterns/multi_gpu/variants.hpp"
#include "handoff/patterns/multi_gpu/workload_registry.hpp"

namespace handoff::bench::multi_gpu {
namespace {

using namespace patterns::multi_gpu;

// Made when first asked, once main has started: a table's rows may be initialised before main
// in any order.
const pattern_spec<multi_gpu_point, multi_gpu_case>& multi_gpu_spec() {
  static const pattern_spec<multi_gpu_point, multi_gpu_case> made{
      .pattern = "multi_gpu",
      .table = multi_gpu_variants(),
      .make_case = make_multi_gpu_case,
      .traffic =
          [](const multi_gpu_point& at) {
            const auto elements = static_cast<double>(at.config.elements);
            return std::pair{sizeof(float) * elements, elements};
          },
      .figures =
          [](const multi_gpu_point& at) {
            return std::vector<patterns::named_figure>{
                {"gpus", static_cast<double>(at.config.gpus)}};
          },
  };
  return made;
}

constexpr std::size_t round_robin_chunk = std::size_t{1} << 22;
constexpr std::size_t smoke_chunk = 256;

// The kernel-only scaling curve also runs at every fourfold size from 2^24 below the headline size;
// a smaller --handoff-max-elements still leaves the headline row.
std::vector<std::size_t> scaling_sizes(const bench_environment& environment) {
  const std::size_t headline = multi_gpu_headline_elements(environment);
  if (environment.config.smoke) return {headline};
  std::vector<std::size_t> sizes;
  for (std::size_t n = std::size_t{1} << 24; n < headline; n *= 4)
    sizes.push_back(n);
  sizes.push_back(headline);
  return sizes;
}

void register_row(std::string_view variant, const partitioned_config& config, run_scope scope) {
  const auto name =
      benchmark_name("multi_gpu", std::string(variant),
                     {{"workload", config.workload},
                      {"gpus", std::to_string(config.gpus)},
                      {"partitioner", std::string(partitioner_name(config.partition))},
                      {"elements", std::to_string(config.elements)},
                      {"scope", std::string(run_scope_name(scope))}});
  register_variant(multi_gpu_spec(), patterns::find_row(multi_gpu_spec().table, variant),
                   multi_gpu_point{config, scope}, patterns::compute_target::device, start::warm,
                   name);
}

partitioned_config config_of(const bench_config& bench, const std::string& workload, int gpus,
                             partitioner kind, std::size_t elements) {
  return {workload, gpus, kind, elements, bench.smoke ? smoke_chunk : round_robin_chunk};
}

std::vector<std::string> workloads_with(workload_rows rows) {
  std::vector<std::string> names;
  for (const auto* w : registered_workloads()) {
    if (w->rows == rows) names.push_back(w->name);
  }
  return names;
}

// Configuration-major (GPU count, partitioner, size, workload), so that consecutive benchmarks
// share one setup; within it every variant and scope.
void register_variants(const bench_environment& environment,
                       const std::vector<std::string_view>& gathers) {
  const auto& bench = environment.config;
  const auto swept = workloads_with(workload_rows::full_sweep);
  const auto placement_checks = workloads_with(workload_rows::placement_check);
  const std::size_t headline = multi_gpu_headline_elements(environment);
  for (int gpus = 1; gpus <= environment.gpus.count; ++gpus) {
    for (const auto kind : {partitioner::even, partitioner::round_robin, partitioner::weighted}) {
      const bool even = kind == partitioner::even;
      // One GPU gets the whole array from every partitioner: the other plans would repeat the even
      // rows, and scale against them (scaling_summary.cpp).
      if (gpus == 1 && !even) continue;
      for (const std::size_t elements : scaling_sizes(environment)) {
        if (!even && elements != headline) continue;
        for (const auto& workload : swept) {
          const auto config = config_of(bench, workload, gpus, kind, elements);
          if (gathers.empty()) {
            register_row("kernel_only", config, run_scope::resident);
            if (even && elements == headline) {
              register_row("kernel_only", config, run_scope::from_host);
              register_row("kernel_only_threads", config, run_scope::resident);
              register_row("kernel_only_threads", config, run_scope::from_host);
              register_row("kernel_only_host_join", config, run_scope::resident);
              register_row("kernel_only_host_join", config, run_scope::from_host);
            }
            continue;
          }
          if (elements != headline) continue;
          for (const auto gather : gathers) {
            for (const auto scope :
                 {run_scope::gather, run_scope::resident, run_scope::from_host}) {
              if (even || scope == run_scope::resident) register_row(gather, config, scope);
            }
          }
        }
      }
      if (!even) continue;
      // A placement check (add_device_value: each device adds its own value) shows a part run on
      // the wrong device in the result; the from-host rows at the headline size are enough.
      for (const auto& workload : placement_checks) {
        const auto config = config_of(bench, workload, gpus, kind, headline);
        if (gathers.empty()) register_row("kernel_only", config, run_scope::from_host);
        for (const auto gather : gathers)
          register_row(gather, config, run_scope::from_host);
      }
    }
  }
}

void register_kernel_only(const bench_environment& environment) {
  register_variants(environment, {});
}

// A family of gathers: their rows, and where they can run: where every one of them can, the first
// row's reason otherwise.
benchmark_family gathers_family(std::string name, int min_gpus,
                                std::vector<std::string_view> gathers) {
  return {.name = std::move(name),
          .min_gpus = min_gpus,
          .register_benchmarks =
              [gathers](const bench_environment& environment) {
                register_variants(environment, gathers);
              },
          .unavailable_reason =
              [gathers](const bench_environment& environment) {
                for (const auto gather : gathers) {
                  const auto& row = patterns::find_row(multi_gpu_spec().table, gather);
                  if (auto reason = patterns::unavailable_reason_of(row, environment.gpus.count);
                      !reason.empty())
                    return reason;
                }
                return std::string();
              }};
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("multi_gpu/kernel_only", 1, register_kernel_only);
HANDOFF_BENCHMARK_FAMILY(gathers_family("multi_gpu/host_gather", 1,
                                        {"host_gather", "host_gather_pinned"}));
// A gather between devices needs two of them: on one GPU its rows would repeat kernel_only's with
// a copy inside one device, and cost a profile their set-up of a gibibyte each. With two or more,
// their gpus:1 rows are each variant's own scaling baseline.
HANDOFF_BENCHMARK_FAMILY(gathers_family("multi_gpu/p2p_gather", 2, {"p2p_gather"}));
HANDOFF_BENCHMARK_FAMILY(gathers_family("multi_gpu/nccl_allgather", 2, {"nccl_allgather"}));
HANDOFF_BENCHMARK_FAMILY(gathers_family("multi_gpu/nccl_allgather_window", 2,
                                        {"nccl_allgather_window"}));

}  // namespace handoff::bench::multi_gpu

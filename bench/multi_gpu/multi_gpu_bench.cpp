// multi_gpu/<variant>/workload:<w>/gpus:<n>/partitioner:<p>/elements:<e>/scope:<s>: seed 004, an
// array split over GPUs, a user kernel (the article's RawKernel) run on each part, and the
// results gathered. Scopes: gather (the gather alone, its bandwidth against the peer or PCIe
// ceiling), resident (kernel and gather, the input already on the devices) and from_host (each
// part uploaded first; host_gather uploads from pageable memory, as the article does).
//
// The variants, their sessions and floors are the table of patterns/multi_gpu/variants.hpp; each
// row also says which family its rows belong to, the fewest GPUs they need, and at which points of
// the sweep below it is measured (measured_at); the driver measures every row. This file declares
// the sweep and the names (sweep_registrar.hpp registers each family's rows over them). The
// workloads are those registered (patterns/multi_gpu/workload_registry.hpp): the article's two, and
// any a user's file in HANDOFF_USER_KERNELS adds. Every run is verified, every copy of the result
// (each device's, for NCCL), against the workload's CPU reference within its tolerance (exactly,
// for the article's). Counters beyond the driver's: gpus (here), and the sessions' figures
// (patterns/multi_gpu/figures.hpp). Scaling efficiency against gpus:1 is added by the harness at
// the end.

#include <algorithm>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/multi_gpu_size.hpp"
#include "../harness/sweep_registrar.hpp"
#include "handoff/patterns/multi_gpu/variants.hpp"
#include "handoff/patterns/multi_gpu/workload_registry.hpp"

namespace handoff::bench::multi_gpu {
namespace {

using namespace patterns::multi_gpu;

// Made when first asked, once main has started: a table's rows may be initialised before main
// in any order.
const pattern_spec<multi_gpu_point, multi_gpu_case, across_ranks>& multi_gpu_spec() {
  static const pattern_spec<multi_gpu_point, multi_gpu_case, across_ranks> made{
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

name_axes axes(const multi_gpu_point& at, patterns::compute_target, std::optional<start>) {
  return {{"workload", at.config.workload},
          {"gpus", std::to_string(at.config.gpus)},
          {"partitioner", std::string(partitioner_name(at.config.partition))},
          {"elements", std::to_string(at.config.elements)},
          {"scope", std::string(run_scope_name(at.scope))}};
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

// Configuration-major (GPU count, partitioner, size, workload), each configuration at every
// scope.
std::vector<multi_gpu_point> points_here(const bench_environment& environment) {
  const auto& bench = environment.config;
  const auto swept = workloads_with(workload_rows::full_sweep);
  const auto placement_checks = workloads_with(workload_rows::placement_check);
  const std::size_t headline = multi_gpu_headline_elements(environment);
  std::vector<multi_gpu_point> points;
  const auto add = [&](const partitioned_config& config) {
    for (const auto scope : {run_scope::gather, run_scope::resident, run_scope::from_host})
      points.push_back({config, scope, config.elements == headline});
  };
  for (int gpus = 1; gpus <= environment.gpus.count; ++gpus) {
    for (const auto kind : {partitioner::even, partitioner::round_robin, partitioner::weighted}) {
      const bool even = kind == partitioner::even;
      // One GPU gets the whole array from every partitioner: the other plans would repeat the even
      // rows, and scale against them (scaling_summary.cpp).
      if (gpus == 1 && !even) continue;
      for (const std::size_t elements : scaling_sizes(environment)) {
        if (!even && elements != headline) continue;
        for (const auto& workload : swept)
          add(config_of(bench, workload, gpus, kind, elements));
      }
      // A placement check (add_device_value: each device adds its own value) shows a part run on
      // the wrong device in the result; the even partitioner at the headline size is enough.
      if (!even) continue;
      for (const auto& workload : placement_checks)
        add(config_of(bench, workload, gpus, kind, headline));
    }
  }
  return points;
}

bool same_configuration(const multi_gpu_point& first, const multi_gpu_point& next) {
  return first.config == next.config;
}

// So that consecutive benchmarks share one setup: at each configuration the family's rows in
// table order, each at the scopes it is measured at.
constexpr pattern_sweep<multi_gpu_point, multi_gpu_case, across_ranks> sweep{
    .spec = multi_gpu_spec,
    .points_here = points_here,
    .axes = axes,
    .rows_outermost = true,
    .same_group = same_configuration};

std::vector<const multi_gpu_row*> rows_of(std::string_view family) {
  std::vector<const multi_gpu_row*> rows;
  for (const auto& row : multi_gpu_spec().table) {
    if (row.family == family) rows.push_back(&row);
  }
  return rows;
}

void register_family_rows(const bench_environment& environment, std::string_view family) {
  register_sweep(sweep, environment, patterns::compute_target::device,
                 [family](const multi_gpu_row& row) { return row.family == family; });
}

// The families the table declares, in the order of their first rows: each where all of its rows
// can run, the first row's reason otherwise, and with the most GPUs any of its rows needs.
std::vector<benchmark_family> table_families() {
  std::vector<benchmark_family> families;
  for (const auto& row : multi_gpu_spec().table) {
    const std::string name = "multi_gpu/" + std::string(row.family);
    auto family = std::ranges::find(families, name, &benchmark_family::name);
    if (family == families.end()) {
      families.push_back({.name = name,
                          .min_gpus = 1,
                          .register_benchmarks =
                              [family_name = row.family](const bench_environment& environment) {
                                register_family_rows(environment, family_name);
                              },
                          .unavailable_reason =
                              [family_name = row.family](const bench_environment& environment) {
                                for (const auto* member : rows_of(family_name)) {
                                  if (auto reason = patterns::unavailable_reason_of(
                                          *member, environment.gpus.count);
                                      !reason.empty())
                                    return reason;
                                }
                                return std::string();
                              }});
      family = std::prev(families.end());
    }
    family->min_gpus = std::max(family->min_gpus, row.min_gpus);
  }
  return families;
}

}  // namespace

// The families a gather between devices has need two GPUs: on one, its rows would repeat
// kernel_only's with a copy inside one device, and cost a profile their set-up of a gibibyte each.
// With two or more, their gpus:1 rows are each variant's own scaling baseline.
HANDOFF_BENCHMARK_FAMILIES(table_families);

}  // namespace handoff::bench::multi_gpu

#include "handoff/patterns/multi_gpu/sweep.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "handoff/patterns/multi_gpu/headline_size.hpp"
#include "handoff/patterns/multi_gpu/workload_registry.hpp"

namespace handoff::patterns::multi_gpu {

// Named, so that a unity build of this layer (the sanitizer presets) never joins these helpers
// with another file's.
namespace multi_gpu_sweep {
namespace {

constexpr std::size_t round_robin_chunk = std::size_t{1} << 22;
constexpr std::size_t smoke_chunk = 256;

// The kernel-only scaling curve also runs at every fourfold size from 2^24 below the headline size;
// a smaller element cap still leaves the headline row.
std::vector<std::size_t> scaling_sizes(const sweep_settings& settings) {
  const std::size_t headline = headline_elements(settings);
  if (settings.smoke) return {headline};
  std::vector<std::size_t> sizes;
  for (std::size_t n = std::size_t{1} << 24; n < headline; n *= 4)
    sizes.push_back(n);
  sizes.push_back(headline);
  return sizes;
}

name_axes axes(const multi_gpu_point& at, compute_target, std::optional<start>) {
  return multi_gpu_axes(at);
}

partitioned_config config_of(const sweep_settings& settings, const std::string& workload, int gpus,
                             partitioner kind, std::size_t elements) {
  return {workload, gpus, kind, elements, settings.smoke ? smoke_chunk : round_robin_chunk};
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
std::vector<multi_gpu_point> points(const sweep_settings& settings) {
  const auto swept = workloads_with(workload_rows::full_sweep);
  const auto placement_checks = workloads_with(workload_rows::placement_check);
  const std::size_t headline = headline_elements(settings);
  std::vector<multi_gpu_point> made;
  const auto add = [&](const partitioned_config& config) {
    for (const auto scope : {run_scope::gather, run_scope::resident, run_scope::from_host})
      made.push_back({config, scope, config.elements == headline});
  };
  for (int gpus = 1; gpus <= settings.gpus; ++gpus) {
    for (const auto kind : {partitioner::even, partitioner::round_robin, partitioner::weighted}) {
      const bool even = kind == partitioner::even;
      // One GPU gets the whole array from every partitioner: the other plans would repeat the even
      // rows, and scale against them (the bench's scaling summary).
      if (gpus == 1 && !even) continue;
      for (const std::size_t elements : scaling_sizes(settings)) {
        if (!even && elements != headline) continue;
        for (const auto& workload : swept)
          add(config_of(settings, workload, gpus, kind, elements));
      }
      // A placement check (add_device_value: each device adds its own value) shows a part run on
      // the wrong device in the result; the even partitioner at the headline size is enough.
      if (!even) continue;
      for (const auto& workload : placement_checks)
        add(config_of(settings, workload, gpus, kind, headline));
    }
  }
  return made;
}

bool same_configuration(const multi_gpu_point& first, const multi_gpu_point& next) {
  return first.config == next.config;
}

// So that consecutive benchmarks share one setup: at each configuration the family's rows in
// table order, each at the scopes it is measured at.
constexpr pattern_sweep<multi_gpu_point, multi_gpu_case, across_ranks> sweep{
    .points = points, .axes = axes, .rows_outermost = true, .same_group = same_configuration};

}  // namespace
}  // namespace multi_gpu_sweep

name_axes multi_gpu_axes(const multi_gpu_point& at) {
  return {{"workload", at.config.workload},
          {"gpus", std::to_string(at.config.gpus)},
          {"partitioner", std::string(partitioner_name(at.config.partition))},
          {"elements", std::to_string(at.config.elements)},
          {"scope", std::string(run_scope_name(at.scope))}};
}

// The families a gather between devices has need two GPUs (their rows' min_gpus): on one, their
// rows would repeat kernel_only's with a copy inside one device, and cost a profile their set-up
// of a gibibyte each. With two or more, their gpus:1 rows are each variant's own scaling
// baseline.
const pattern_benchmarks<multi_gpu_point, multi_gpu_case, across_ranks>& multi_gpu_benchmarks() {
  static const pattern_benchmarks<multi_gpu_point, multi_gpu_case, across_ranks> made{
      .spec = {
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
                return std::vector<named_figure>{{"gpus", static_cast<double>(at.config.gpus)}};
              }},
      .families = {{.min_gpus = 1,
                    .target = compute_target::device,
                    .sweeps = {multi_gpu_sweep::sweep},
                    .one_per_row_family = true}}};
  return made;
}

}  // namespace handoff::patterns::multi_gpu

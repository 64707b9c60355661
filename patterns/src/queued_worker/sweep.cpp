#include "handoff/patterns/queued_worker/sweep.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace handoff::patterns::queued_worker {

// Named, so that a unity build of this layer (the sanitizer presets) never joins these helpers
// with another file's.
namespace queued_worker_sweep {
namespace {

constexpr std::size_t default_items = 10;
constexpr std::size_t default_elements = std::size_t{1} << 20;

name_axes axes(const point& at, compute_target target, std::optional<start> how) {
  return {{"compute", std::string(compute_target_name(target))},
          {"items", std::to_string(at.items)},
          {"elements", std::to_string(at.elements)},
          {"start", std::string(start_name(how.value_or(start::warm)))}};
}

std::vector<point> warm_points(const sweep_settings& settings) {
  // Uneven, and every variant still crosses its rings more than once.
  if (settings.smoke) return {{.items = default_items, .elements = 4099}};
  // 2^22 elements, the slowest items, only in the full profile.
  const std::size_t largest =
      settings.profile == sweep_profile::full ? std::size_t{1} << 22 : std::size_t{1} << 20;
  std::vector<point> points;
  for (const std::size_t elements :
       {std::size_t{1} << 16, std::size_t{1} << 20, std::size_t{1} << 22}) {
    if (elements <= std::min<std::uint64_t>(largest, settings.max_elements))
      points.push_back({.items = default_items, .elements = elements});
  }
  return points;
}

std::vector<point> cold_points(const sweep_settings& settings) {
  const std::size_t elements = settings.smoke ? 4099 : default_elements;
  if (elements > settings.max_elements) return {};
  return {{.items = default_items, .elements = elements, .stop_after_run = true}};
}

int cold_samples(const sweep_settings& settings, const point&) {
  return settings.smoke ? 1 : 3;
}

// Every row on the family's target: each through its warm sizes, then each cold once.
constexpr pattern_sweep<point, item_batch, worker_behaviour> sweep{.rows = family_rows::by_target,
                                                                   .points = warm_points,
                                                                   .axes = axes,
                                                                   .cold_samples = cold_samples,
                                                                   .cold_points = cold_points,
                                                                   .rows_outermost = true};

}  // namespace
}  // namespace queued_worker_sweep

const pattern_benchmarks<point, item_batch, worker_behaviour>& queued_worker_benchmarks() {
  static const pattern_benchmarks<point, item_batch, worker_behaviour> made{
      .spec = {.pattern = "queued_worker",
               .table = queued_worker_variants(),
               .make_case = make_batch,
               .traffic =
                   [](const point& at) {
                     const auto values = static_cast<double>(at.elements * at.items);
                     return std::pair{3.0 * sizeof(float) * values, values};
                   }},
      .families = {{.name = "cpu",
                    .target = compute_target::host_stand_in,
                    .sweeps = {queued_worker_sweep::sweep}},
                   {.name = "gpu",
                    .min_gpus = 1,
                    .target = compute_target::device,
                    .sweeps = {queued_worker_sweep::sweep}}}};
  return made;
}

}  // namespace handoff::patterns::queued_worker

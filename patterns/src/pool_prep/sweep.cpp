#include "handoff/patterns/pool_prep/sweep.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace handoff::patterns::pool_prep {

// Named, so that a unity build of this layer (the sanitizer presets) never joins these helpers
// with another file's.
namespace pool_prep_sweep {
namespace {

constexpr std::size_t default_workers = 4;
constexpr std::size_t default_elements = std::size_t{1} << 20;

// The default size (10 chunks of 2^20 floats; the seed's 1'000'000 rounded to a power of two)
// with 2, 4 and 8 workers; a smaller and (in the full profile) a larger chunk with 4 workers. Cold
// figures at the default only: each one starts a whole pool. A smoke run: 3 uneven-sized chunks of
// 1027.
std::vector<point> points(const sweep_settings& settings) {
  if (settings.smoke) return {{.chunks = 3, .elements = 1027, .workers = 2}};
  std::vector<point> made;
  const auto add = [&](std::size_t elements, std::size_t workers) {
    const point at{.chunks = 10, .elements = elements, .workers = workers};
    if (at.total() <= settings.max_elements) made.push_back(at);
  };
  add(std::size_t{1} << 16, default_workers);
  for (const std::size_t workers : {2, 4, 8})
    add(default_elements, workers);
  // Chunks of 2^22 floats take a third of a second a run: the full profile's.
  if (settings.profile == sweep_profile::full) add(std::size_t{1} << 22, default_workers);
  return made;
}

bool has_cold(const sweep_settings& settings, const point& at) {
  return settings.smoke || (at.elements == default_elements && at.workers == default_workers);
}

bool one_thread(const row& variant) {
  return variant.threads == host_threads::calling_only;
}

// The one-thread reference has no workers: one row per size, at the default worker count's
// points.
bool runs_at(const sweep_settings& settings, const row& variant, const point& at, compute_target,
             start) {
  return !one_thread(variant) || settings.smoke || at.workers == default_workers;
}

bool has_axis(const row& variant, std::string_view axis) {
  return axis != "workers" || !one_thread(variant);
}

name_axes axes(const point& at, compute_target, std::optional<start> how) {
  name_axes named{{"chunks", std::to_string(at.chunks)},
                  {"elements", std::to_string(at.elements)},
                  {"workers", std::to_string(at.workers)}};
  if (how) named.emplace_back("start", start_name(*how));
  return named;
}

int cold_samples(const sweep_settings& settings, const point&) {
  return settings.smoke ? 1 : 3;
}

// Each row through its sizes.
constexpr pattern_sweep<point, batch_case> sweep{.points = points,
                                                 .axes = axes,
                                                 .cold_samples = cold_samples,
                                                 .rows_outermost = true,
                                                 .cold_at = has_cold,
                                                 .row_runs_at = runs_at,
                                                 .row_has_axis = has_axis};

}  // namespace
}  // namespace pool_prep_sweep

// Made when first asked, once main has started: a table's rows may be initialised before main
// in any order.
const pattern_benchmarks<point, batch_case>& pool_prep_benchmarks() {
  static const pattern_benchmarks<point, batch_case> made{
      .spec = {.pattern = "pool_prep",
               .table = pool_prep_variants(),
               .make_case = make_batch_case,
               .traffic =
                   [](const point& at) {
                     const double n = static_cast<double>(at.total());
                     return std::pair{3 * sizeof(float) * n, n};  // a and b in, c out
                   }},
      .families = {{.name = "cpu",
                    .target = compute_target::host_stand_in,
                    .sweeps = {pool_prep_sweep::sweep}},
                   {.name = "gpu",
                    .min_gpus = 1,
                    .target = compute_target::device,
                    .sweeps = {pool_prep_sweep::sweep}}}};
  return made;
}

}  // namespace handoff::patterns::pool_prep

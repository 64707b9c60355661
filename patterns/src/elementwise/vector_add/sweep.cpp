#include "handoff/patterns/elementwise/vector_add_sweep.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "handoff/patterns/profile_points.hpp"

namespace handoff::patterns::elementwise {

// Named, so that a unity build of this layer (the sanitizer presets) never joins these helpers
// with another file's.
namespace vector_add_sweep {
namespace {

// Powers of 4 from 2^10 to the cap, plus 10M, the size seed 000 uses and the reference figures
// quote; the default profile keeps 2^10, 2^16, 2^24 and 10M. A smoke run uses one size that is not
// a multiple of 4, to cover the kernel's tail.
std::vector<std::size_t> element_counts(const sweep_settings& settings) {
  if (auto chosen = chosen_values(settings, "elements")) return *chosen;
  if (settings.smoke) return {1027};
  std::vector<std::size_t> counts;
  for (std::uint64_t count = 1 << 10; count <= settings.max_elements; count *= 4) {
    counts.push_back(count);
    if (count > settings.max_elements / 4) break;  // the next step would pass the cap or overflow
  }
  constexpr std::size_t seed_size = 10'000'000;
  if (seed_size <= settings.max_elements) counts.push_back(seed_size);
  return profile_points<std::size_t>(
      settings, counts, {std::size_t{1} << 16, std::size_t{1} << 24, std::size_t{10'000'000}});
}

std::vector<vector_add_point> points(const sweep_settings& settings) {
  std::vector<vector_add_point> made;
  for (const std::size_t count : element_counts(settings))
    made.push_back({.count = count});
  return made;
}

name_axes axes(const vector_add_point& at, compute_target, std::optional<start>) {
  return {{"workload", "vector_add"}, {"elements", std::to_string(at.count)}};
}

constexpr pattern_sweep<vector_add_point, vector_add_case> sweep{.points = points, .axes = axes};

}  // namespace
}  // namespace vector_add_sweep

const pattern_benchmarks<vector_add_point, vector_add_case>& vector_add_benchmarks() {
  static const pattern_benchmarks<vector_add_point, vector_add_case> made{
      .spec = {.pattern = "elementwise",
               .table = vector_add_variants(),
               .make_case = make_vector_add_case,
               .traffic =
                   [](const vector_add_point& at) {
                     return std::pair{vector_add_bytes(at.count), static_cast<double>(at.count)};
                   }},
      .settable_axes = {"elements"},
      .families = {{.name = "vector_add/cpu",
                    .target = compute_target::host_stand_in,
                    .sweeps = {vector_add_sweep::sweep}},
                   {.name = "vector_add/gpu",
                    .min_gpus = 1,
                    .target = compute_target::device,
                    .sweeps = {vector_add_sweep::sweep}}}};
  return made;
}

}  // namespace handoff::patterns::elementwise

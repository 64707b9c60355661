#pragma once
// One way to register a pattern's rows: what a pattern declares (its points in the order they are
// measured, the axes of a row's name, whether its rows have a cold figure) and one loop that walks
// its table over them. Points go outermost, so consecutive rows share the cached case of a point;
// within a point, the table's rows in their order, each warm and then, where the pattern and the
// row have one, cold.
// A row is registered where it runs on the family's target and at the points it is measured at
// (its measured_at).

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench_config.hpp"
#include "driver.hpp"
#include "registration.hpp"

namespace handoff::bench {

using name_axes = std::vector<std::pair<std::string, std::string>>;

// Which of a table's rows a family of one target holds: the CPU references in the CPU family and
// the rest in the GPU family (by_cpu_rows), or every row that runs on the target (by_target).
enum class family_rows { by_cpu_rows, by_target };

template <class Point, class Case, class Specifics = patterns::no_specifics>
struct pattern_sweep {
  const pattern_spec<Point, Case, Specifics>& (*spec)() = nullptr;
  family_rows rows = family_rows::by_cpu_rows;
  // The points of the sweep, in the order they are measured.
  std::vector<Point> (*points)(const bench_config& config) = nullptr;
  // The axes of a row's name after its variant's, on target, warm or cold; how is empty for a row
  // without a cold figure, whose name has no start.
  name_axes (*axes)(const Point& at, patterns::compute_target target,
                    std::optional<start> how) = nullptr;
  // The samples of a cold row at a point; none: the rows have no cold figure.
  int (*cold_samples)(const bench_config& config, const Point& at) = nullptr;
};

template <class Point, class Case, class Specifics>
bool in_family(const pattern_sweep<Point, Case, Specifics>& sweep,
               const patterns::variant_row<Point, Case, Specifics>& row,
               patterns::compute_target target) {
  if (sweep.rows == family_rows::by_target) return row.targets.supports(target);
  return target == patterns::compute_target::device ? !row.targets.cpu : row.targets.cpu;
}

template <class Point, class Case, class Specifics>
void register_sweep(const pattern_sweep<Point, Case, Specifics>& sweep,
                    const bench_environment& environment, patterns::compute_target target) {
  const auto& spec = sweep.spec();
  const auto& config = environment.config;
  for (const Point& at : sweep.points(config)) {
    for (const auto& row : spec.table) {
      if (!in_family(sweep, row, target) || !patterns::is_measured_at(row, at)) continue;
      const int cold_samples = sweep.cold_samples ? sweep.cold_samples(config, at) : 3;
      for (const start how : {start::warm, start::cold}) {
        const bool has_cold = sweep.cold_samples && row.cold != patterns::cold_kind::none;
        if (how == start::cold && !has_cold) break;
        const auto named_start = has_cold ? std::optional<start>(how) : std::nullopt;
        register_variant(spec, row, at, target, how,
                         benchmark_name(std::string(spec.pattern), std::string(row.name),
                                        sweep.axes(at, target, named_start)),
                         cold_samples);
      }
    }
  }
}

// A family's registration function: every row of sweep on target.
template <const auto& sweep, patterns::compute_target target>
void register_sweep_on(const bench_environment& environment) {
  register_sweep(sweep, environment, target);
}

}  // namespace handoff::bench

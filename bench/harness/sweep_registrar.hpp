#pragma once
// One way to register a pattern's rows: what a pattern declares (its points in the order they are
// measured, the axes of a row's name, whether its rows have a cold figure and where) and one loop
// that walks its table over them. Points go outermost by default, so consecutive rows share the
// cached case of a point; within a point, the table's rows in their order, each warm and then,
// where the pattern and the row have one, cold.
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
  // Where the cold rows are measured, after every warm row, a row's in turn; none: a row's cold
  // figure follows its warm one at each point.
  std::vector<Point> (*cold_points)(const bench_config& config) = nullptr;
  // Each row through all its points before the next row, rather than each point through all rows.
  bool rows_outermost = false;
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
  using row_type = patterns::variant_row<Point, Case, Specifics>;
  const auto& spec = sweep.spec();
  const auto& config = environment.config;
  const auto has_cold = [&](const row_type& row) {
    return sweep.cold_samples && row.cold != patterns::cold_kind::none;
  };
  const auto runs_at = [&](const row_type& row, const Point& at) {
    return in_family(sweep, row, target) && patterns::is_measured_at(row, at);
  };
  const auto add = [&](const row_type& row, const Point& at, start how) {
    const auto named_start = has_cold(row) ? std::optional<start>(how) : std::nullopt;
    register_variant(spec, row, at, target, how,
                     benchmark_name(std::string(spec.pattern), std::string(row.name),
                                    sweep.axes(at, target, named_start)),
                     sweep.cold_samples ? sweep.cold_samples(config, at) : 3);
  };
  const auto add_at = [&](const row_type& row, const Point& at) {
    if (!runs_at(row, at)) return;
    add(row, at, start::warm);
    if (has_cold(row) && sweep.cold_points == nullptr) add(row, at, start::cold);
  };
  const auto points = sweep.points(config);
  if (sweep.rows_outermost) {
    for (const auto& row : spec.table)
      for (const Point& at : points)
        add_at(row, at);
  } else {
    for (const Point& at : points)
      for (const auto& row : spec.table)
        add_at(row, at);
  }
  if (sweep.cold_points == nullptr) return;
  const auto cold_points = sweep.cold_points(config);
  for (const auto& row : spec.table) {
    for (const Point& at : cold_points) {
      if (has_cold(row) && runs_at(row, at)) add(row, at, start::cold);
    }
  }
}

// A family's registration function: every row of sweep on target.
template <const auto& sweep, patterns::compute_target target>
void register_sweep_on(const bench_environment& environment) {
  register_sweep(sweep, environment, target);
}

}  // namespace handoff::bench

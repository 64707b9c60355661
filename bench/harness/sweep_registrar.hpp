#pragma once
// One way to register a pattern's rows: what a pattern declares (its points in the order they are
// measured, the axes of a row's name, whether its rows have a cold figure and where) and one loop
// that walks its table over them. Points go outermost by default, so consecutive rows share the
// cached case of a point; within a point, the table's rows in their order, each warm and then,
// where the pattern and the row have one, cold.
// A row is registered where it runs on the family's target and at the points it is measured at
// (its measured_at).

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
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
  using row_type = patterns::variant_row<Point, Case, Specifics>;
  const pattern_spec<Point, Case, Specifics>& (*spec)() = nullptr;
  family_rows rows = family_rows::by_cpu_rows;
  // The points of the sweep, in the order they are measured.
  std::vector<Point> (*points)(const bench_config& config) = nullptr;
  // In place of points, where they depend on the machine (its GPU count): the points here.
  std::vector<Point> (*points_here)(const bench_environment& environment) = nullptr;
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
  // Where a row with a cold figure has one, when it follows the warm one; none: at every point.
  bool (*cold_at)(const bench_config& config, const Point& at) = nullptr;
  // Whether a row runs at a point of its family's sweep, warm or cold, beyond its own measured_at
  // (a one-thread reference only at the default worker count); none: yes.
  bool (*row_runs_at)(const bench_config& config, const row_type& row, const Point& at,
                      patterns::compute_target target, start how) = nullptr;
  // With rows_outermost: which consecutive points are walked row by row together (a size and its
  // data locations); none: all of them.
  bool (*same_group)(const Point& first, const Point& next) = nullptr;
  // Whether a row's name holds one of the sweep's axes (a one-thread reference has no workers);
  // none: every row holds every axis.
  bool (*row_has_axis)(const row_type& row, std::string_view axis) = nullptr;
  // Rows measured before the others at each point (an in-process reference that sets up the
  // point's case for the rest); none: the table's order.
  bool (*leads)(const row_type& row) = nullptr;
  // In place of points: the sweep as steps, each a point and the start measured there, in order,
  // on the family's target; for a pattern whose cold figure at a point follows other points'
  // warm ones. A row without a cold figure runs at the warm steps only.
  std::vector<std::pair<Point, start>> (*steps)(const bench_config& config,
                                                patterns::compute_target target) = nullptr;
};

template <class Point, class Case, class Specifics>
bool in_family(const pattern_sweep<Point, Case, Specifics>& sweep,
               const patterns::variant_row<Point, Case, Specifics>& row,
               patterns::compute_target target) {
  if (sweep.rows == family_rows::by_target) return row.targets.supports(target);
  return target == patterns::compute_target::device ? !row.targets.cpu : row.targets.cpu;
}

// Registers the rows of sweep's table that run on target, and where `only` is given, only the
// rows it accepts (a family the table names row by row).
template <class Point, class Case, class Specifics>
void register_sweep(
    const pattern_sweep<Point, Case, Specifics>& sweep, const bench_environment& environment,
    patterns::compute_target target,
    const std::function<bool(const typename pattern_sweep<Point, Case, Specifics>::row_type&)>&
        only = nullptr) {
  using row_type = typename pattern_sweep<Point, Case, Specifics>::row_type;
  const auto& spec = sweep.spec();
  const auto& config = environment.config;
  const auto has_cold = [&](const row_type& row) {
    return sweep.cold_samples && row.cold != patterns::cold_kind::none;
  };
  const auto runs_at = [&](const row_type& row, const Point& at, start how) {
    return in_family(sweep, row, target) && patterns::is_measured_at(row, at) &&
           (how == start::warm || has_cold(row)) &&
           (sweep.row_runs_at == nullptr || sweep.row_runs_at(config, row, at, target, how));
  };
  const auto axes_of = [&](const row_type& row, const Point& at, std::optional<start> how) {
    auto axes = sweep.axes(at, target, how);
    if (sweep.row_has_axis != nullptr) {
      std::erase_if(axes, [&](const auto& axis) { return !sweep.row_has_axis(row, axis.first); });
    }
    return axes;
  };
  const auto add = [&](const row_type& row, const Point& at, start how) {
    const auto named_start = has_cold(row) ? std::optional<start>(how) : std::nullopt;
    register_variant(spec, row, at, target, how,
                     benchmark_name(std::string(spec.pattern), std::string(row.name),
                                    axes_of(row, at, named_start)),
                     sweep.cold_samples ? sweep.cold_samples(config, at) : 3);
  };
  std::vector<const row_type*> rows;
  for (const auto& row : spec.table) {
    if (!only || only(row)) rows.push_back(&row);
  }
  if (sweep.leads != nullptr) {
    std::stable_partition(rows.begin(), rows.end(),
                          [&](const row_type* row) { return sweep.leads(*row); });
  }
  if (sweep.steps != nullptr) {
    const auto steps = sweep.steps(config, target);
    const auto add_step = [&](const row_type& row, const std::pair<Point, start>& step) {
      if (runs_at(row, step.first, step.second)) add(row, step.first, step.second);
    };
    if (sweep.rows_outermost) {
      for (const row_type* row : rows)
        for (const auto& step : steps)
          add_step(*row, step);
    } else {
      for (const auto& step : steps)
        for (const row_type* row : rows)
          add_step(*row, step);
    }
    return;
  }
  const auto add_at = [&](const row_type& row, const Point& at) {
    if (runs_at(row, at, start::warm)) add(row, at, start::warm);
    const bool cold_here = sweep.cold_at == nullptr || sweep.cold_at(config, at);
    if (sweep.cold_points == nullptr && cold_here && runs_at(row, at, start::cold))
      add(row, at, start::cold);
  };
  const auto points = sweep.points_here ? sweep.points_here(environment) : sweep.points(config);
  if (sweep.rows_outermost) {
    for (std::size_t first = 0; first < points.size();) {
      std::size_t end = first + 1;
      while (end < points.size() &&
             (sweep.same_group == nullptr || sweep.same_group(points[first], points[end])))
        ++end;
      for (const row_type* row : rows)
        for (std::size_t index = first; index < end; ++index)
          add_at(*row, points[index]);
      first = end;
    }
  } else {
    for (const Point& at : points)
      for (const row_type* row : rows)
        add_at(*row, at);
  }
  if (sweep.cold_points == nullptr) return;
  const auto cold_points = sweep.cold_points(config);
  for (const row_type* row : rows) {
    for (const Point& at : cold_points) {
      if (runs_at(*row, at, start::cold)) add(*row, at, start::cold);
    }
  }
}

// A family's registration function: every row of sweep on target.
template <const auto& sweep, patterns::compute_target target>
void register_sweep_on(const bench_environment& environment) {
  register_sweep(sweep, environment, target);
}

}  // namespace handoff::bench

#pragma once
// Where a pattern's rows are measured, declared next to its table, as nvbench declares a
// benchmark's axes: its points in the order they are measured, the axes of a row's name, and
// whether and where its rows have a cold figure. The bench's registrar walks it: points go
// outermost by default, so consecutive rows share the cached case of a point; within a point, the
// table's rows in their order, each warm and then, where the sweep and the row have one, cold. A
// row runs where it runs on the family's target and at the points it is measured at (its
// measured_at).

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/sweep_settings.hpp"
#include "handoff/patterns/variant.hpp"

namespace handoff::patterns {

// A warm figure runs on a session already set up; a cold one pays the set-up too.
enum class start { warm, cold };

// The parts of a row's name after its variant's, each "axis:value".
using name_axes = std::vector<std::pair<std::string, std::string>>;

inline std::string_view start_name(start how) {
  return how == start::cold ? "cold" : "warm";
}

// Which of a table's rows a family of one target holds: the CPU references in the CPU family and
// the rest in the GPU family (by_cpu_rows), or every row that runs on the target (by_target).
enum class family_rows { by_cpu_rows, by_target };

template <class Point, class Case, class Specifics = no_specifics>
struct pattern_sweep {
  using row_type = variant_row<Point, Case, Specifics>;
  family_rows rows = family_rows::by_cpu_rows;
  // The points of the sweep, in the order they are measured.
  std::vector<Point> (*points)(const sweep_settings& settings) = nullptr;
  // The axes of a row's name after its variant's, on target, warm or cold; how is empty for a row
  // without a cold figure, whose name has no start.
  name_axes (*axes)(const Point& at, compute_target target, std::optional<start> how) = nullptr;
  // The samples of a cold row at a point; none: the rows have no cold figure.
  int (*cold_samples)(const sweep_settings& settings, const Point& at) = nullptr;
  // Where the cold rows are measured, after every warm row, a row's in turn; none: a row's cold
  // figure follows its warm one at each point.
  std::vector<Point> (*cold_points)(const sweep_settings& settings) = nullptr;
  // Each row through all its points before the next row, rather than each point through all rows.
  bool rows_outermost = false;
  // Where a row with a cold figure has one, when it follows the warm one; none: at every point.
  bool (*cold_at)(const sweep_settings& settings, const Point& at) = nullptr;
  // Whether a row runs at a point of its family's sweep, warm or cold, beyond its own measured_at
  // (a one-thread reference only at the default worker count); none: yes.
  bool (*row_runs_at)(const sweep_settings& settings, const row_type& row, const Point& at,
                      compute_target target, start how) = nullptr;
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
  std::vector<std::pair<Point, start>> (*steps)(const sweep_settings& settings,
                                                compute_target target) = nullptr;
};

}  // namespace handoff::patterns

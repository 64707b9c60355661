#pragma once
// Each pattern's headline point: its default size, the variant that is the articles' recipe, the
// axes that make a row a CPU way, and the variants left out of "fastest". The table is the reports'
// own file, reports/handoff_reports/data/headline_points.json, built into handoff_bench, so that
// the table printed at the end of a run and the report's headline are one table.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "name_parts.hpp"

namespace handoff::bench {

// An axis of this value takes the largest value measured at the rest of the point (the GPU count).
inline constexpr std::string_view largest_axis_value = "{largest}";

struct headline_point {
  std::string pattern;
  axis_values point;
  std::optional<std::string> recipe;  // empty where no row of the recipe runs at the point
  // A CPU way is a variant named cpu_*, or a row at the point with these axes changed (the same
  // hand-off computing on the host).
  axis_values cpu_axes;
  // Not a way to do the pattern's job (the multi-GPU kernel alone, which gathers nothing).
  std::vector<std::string> not_compared;
};

// The points of a headline_points.json text; std::invalid_argument for another layout.
std::vector<headline_point> parse_headline_points(std::string_view json_text);

// The points built in from reports/handoff_reports/data/headline_points.json.
const std::vector<headline_point>& headline_points();

}  // namespace handoff::bench

#pragma once
// A benchmark's name read as its parts, `<pattern>/<variant>/<axis>:<value>.../manual_time`, by the
// same rules as the reports' (reports/handoff_reports/names.py), so that the end-of-run headline
// and the report's pick the same rows.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace handoff::bench {

// Axis names and values in the order they appear: a headline point is printed in its own order.
using axis_values = std::vector<std::pair<std::string, std::string>>;

struct name_parts {
  std::string key;  // the name without Google Benchmark's timing suffix: what rows are matched by
  std::string pattern;
  std::string variant;  // empty when the second part is already an axis
  axis_values axes;     // a part without ':' is an axis of empty value

  // The value of the axis; the last one where the name repeats it, as the reports read it.
  std::optional<std::string> axis(std::string_view name) const;
};

name_parts parse_name_parts(std::string_view run_name);

}  // namespace handoff::bench

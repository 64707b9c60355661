#include "headline_table.hpp"

#include <algorithm>
#include <limits>
#include <set>

#include "sampling.hpp"

namespace handoff::bench {
namespace {

// From this many repetitions on (passes, or merged runs), the reports sum a row up by the median's
// own interval over the repetitions' medians (compare_stats.MANY_REPETITIONS).
constexpr std::size_t many_repetitions = 9;

double median_of(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::ranges::sort(values);
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

std::vector<double> medians_of(const std::vector<headline_figure>& figures) {
  std::vector<double> medians;
  for (const auto& figure : figures)
    medians.push_back(figure.seconds);
  return medians;
}

const std::string* value_in(const axis_values& axes, const std::string& axis) {
  const auto found = std::ranges::find(axes, axis, &axis_values::value_type::first);
  return found == axes.end() ? nullptr : &found->second;
}

// Every axis the row has takes the point's value, where the point names that axis.
bool at(const headline_row& row, const axis_values& point) {
  return std::ranges::all_of(row.name.axes, [&](const auto& axis) {
    const auto* wanted = value_in(point, axis.first);
    return wanted == nullptr || *wanted == axis.second;
  });
}

// The row has every one of these axes at these values (and there is at least one).
bool has(const headline_row& row, const axis_values& axes) {
  return !axes.empty() && std::ranges::all_of(axes, [&](const auto& axis) {
    return row.name.axis(axis.first) == axis.second;
  });
}

bool all_digits(const std::string& text) {
  return !text.empty() && std::ranges::all_of(text, [](char c) { return c >= '0' && c <= '9'; });
}

// The point with every {largest} axis set to the largest value measured at the rest of it, or
// dropped when no row there has a number for it.
axis_values resolved(const axis_values& point, const std::vector<const headline_row*>& rows) {
  axis_values rest;
  for (const auto& axis : point)
    if (axis.second != largest_axis_value) rest.push_back(axis);
  axis_values result;
  for (const auto& [axis, value] : point) {
    if (value != largest_axis_value) {
      result.emplace_back(axis, value);
      continue;
    }
    std::optional<unsigned long long> largest;
    for (const auto* row : rows) {
      if (!at(*row, rest)) continue;
      const auto measured = row->name.axis(axis);
      // Values past 19 digits are no GPU count; the reports would read them, this leaves them out.
      if (!measured || !all_digits(*measured) || measured->size() > 19) continue;
      largest = std::max(largest.value_or(0), std::stoull(*measured));
    }
    if (largest) result.emplace_back(axis, std::to_string(*largest));
  }
  return result;
}

// The point with these axes changed (a dict update: changed in place, new ones after).
axis_values with_axes(axis_values point, const axis_values& changes) {
  for (const auto& [axis, value] : changes) {
    const auto found = std::ranges::find(point, axis, &axis_values::value_type::first);
    if (found == point.end()) {
      point.emplace_back(axis, value);
    } else {
      found->second = value;
    }
  }
  return point;
}

bool usable(const headline_row& row) {
  return !row.failed && !row.figures.empty() && row.median_seconds() > 0.0;
}

std::optional<headline_entry> quickest(const std::vector<const headline_row*>& rows,
                                       const axis_values& cpu_axes = {}) {
  const headline_row* best = nullptr;
  for (const auto* row : rows) {
    // The first of equal times, as the report's min() keeps.
    if (usable(*row) && (!best || row->median_seconds() < best->median_seconds())) best = row;
  }
  if (!best) return std::nullopt;
  headline_entry entry{*best, {}};
  for (const auto& [axis, value] : cpu_axes) {
    if (best->name.axis(axis) != value) continue;
    if (!entry.note.empty()) entry.note += ' ';
    entry.note += axis + ":" + value;
  }
  return entry;
}

std::string joined(const axis_values& point) {
  std::string text;
  for (const auto& [axis, value] : point) {
    if (!text.empty()) text += '/';
    text += axis + ":" + value;
  }
  return text;
}

}  // namespace

double headline_row::median_seconds() const {
  return median_of(medians_of(figures));
}

std::optional<double> headline_row::floor_seconds() const {
  if (floors.empty()) return std::nullopt;
  return median_of(floors);
}

std::optional<double> headline_row::efficiency() const {
  const auto floor = floor_seconds();
  const double median = median_seconds();
  if (!floor || !(median > 0.0)) return std::nullopt;
  return *floor / median;
}

std::optional<seconds_interval> headline_row::interval() const {
  if (figures.empty()) return std::nullopt;
  auto medians = medians_of(figures);
  std::ranges::sort(medians);
  if (medians.size() >= many_repetitions) {
    // The spread between passes is measured: the median's interval from the passes' medians.
    const std::size_t j = lower_rank_of_median_interval(medians.size());
    if (j == 0) return seconds_interval{medians.front(), medians.back()};
    return seconds_interval{medians[j - 1], medians[medians.size() - j]};
  }
  seconds_interval range{medians.front(), medians.back()};
  for (const auto& figure : figures) {
    if (!figure.ci_low || !figure.ci_high) return std::nullopt;
    range.first = std::min(range.first, *figure.ci_low);
    range.second = std::max(range.second, *figure.ci_high);
  }
  return range;
}

std::string headline_entry::variant() const {
  if (note.empty()) return row.name.variant;
  return row.name.variant + " (" + note + ")";
}

std::optional<double> headline_line::speedup() const {
  if (!recipe || !fastest) return std::nullopt;
  const double fastest_seconds = fastest->row.median_seconds();
  if (fastest_seconds == 0.0) return std::nullopt;
  return recipe->row.median_seconds() / fastest_seconds;
}

std::optional<seconds_interval> headline_line::speedup_interval() const {
  if (!recipe || !fastest) return std::nullopt;
  const auto recipe_interval = recipe->row.interval();
  const auto fastest_interval = fastest->row.interval();
  if (!recipe_interval || !fastest_interval || fastest_interval->first <= 0.0 ||
      fastest_interval->second <= 0.0) {
    return std::nullopt;
  }
  return seconds_interval{recipe_interval->first / fastest_interval->second,
                          recipe_interval->second / fastest_interval->first};
}

std::optional<headline_line> headline_line_for(const headline_point& spec,
                                               const std::vector<headline_row>& rows) {
  std::vector<const headline_row*> own;
  for (const auto& row : rows)
    if (row.name.pattern == spec.pattern) own.push_back(&row);
  const auto point = resolved(spec.point, own);
  std::vector<const headline_row*> at_point;
  for (const auto* row : own)
    if (at(*row, point)) at_point.push_back(row);
  if (at_point.empty()) return std::nullopt;

  const auto cpu_point = with_axes(point, spec.cpu_axes);
  std::vector<const headline_row*> cpu_rows;
  std::set<std::string> cpu_keys;
  for (const auto* row : own) {
    const bool cpu_variant = row->name.variant.starts_with("cpu_") && at(*row, point);
    if (cpu_variant || (has(*row, spec.cpu_axes) && at(*row, cpu_point))) {
      cpu_rows.push_back(row);
      cpu_keys.insert(row->name.key);
    }
  }
  std::vector<const headline_row*> compared;
  std::vector<const headline_row*> recipe_rows;
  for (const auto* row : at_point) {
    if (cpu_keys.contains(row->name.key) ||
        std::ranges::find(spec.not_compared, row->name.variant) != spec.not_compared.end()) {
      continue;
    }
    compared.push_back(row);
    if (spec.recipe && row->name.variant == *spec.recipe) recipe_rows.push_back(row);
  }
  return headline_line{spec.pattern, joined(point), quickest(recipe_rows), quickest(compared),
                       quickest(cpu_rows, spec.cpu_axes)};
}

std::vector<headline_line> headline_table(const std::vector<headline_row>& rows,
                                          const std::vector<headline_point>& points) {
  // The quickest of several runs of one row would be a lucky draw, not a figure: the first counts.
  std::vector<headline_row> first;
  std::set<std::string> seen;
  for (const auto& row : rows)
    if (seen.insert(row.name.key).second) first.push_back(row);
  std::vector<headline_line> lines;
  for (const auto& spec : points)
    if (auto line = headline_line_for(spec, first)) lines.push_back(std::move(*line));
  return lines;
}

std::vector<headline_line> headline_table(const std::vector<headline_row>& rows) {
  return headline_table(rows, headline_points());
}

}  // namespace handoff::bench

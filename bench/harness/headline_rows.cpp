#include "headline_rows.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace handoff::bench {
namespace {

// The figures a row is judged by, and what each must be, as the report checks them: anything else
// there (a NaN, a null, a negative count, a time of zero) fails the row, so that no damaged figure
// is ever the fastest. A time must be positive; the rest must not be negative.
struct checked_figure {
  std::string_view name;
  bool positive;
};
constexpr std::array<checked_figure, 10> checked_figures = {{
    {"real_time", true},
    {"ci_low", true},
    {"ci_high", true},
    {"floor_seconds", true},
    {"wrong", false},
    {"verified", false},
    {"samples", false},
    {"noise", false},
    {"noisy", false},
    {"clock_lowered", false},
}};

bool damaged(double value, bool positive) {
  return !std::isfinite(value) || value < 0.0 || (positive && value == 0.0);
}

// The rows by key, in the order each key first came.
class rows_by_key {
 public:
  headline_row& operator[](const std::string& run_name) {
    auto name = parse_name_parts(run_name);
    const auto [found, added] = index_.try_emplace(name.key, rows_.size());
    if (added) rows_.push_back({std::move(name), {}, {}, false});
    return rows_[found->second];
  }
  bool contains(const std::string& run_name) const {
    return index_.contains(parse_name_parts(run_name).key);
  }
  std::vector<headline_row> take() { return std::move(rows_); }

 private:
  std::map<std::string, std::size_t> index_;
  std::vector<headline_row> rows_;
};

std::optional<double> counter(const measured_run& run, const std::string& name) {
  const auto found = run.counters.find(name);
  if (found == run.counters.end()) return std::nullopt;
  return found->second;
}

// Google Benchmark's time units in seconds.
double seconds_per_unit(const std::string& unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s") return 1.0;
  throw std::invalid_argument("results: unknown time_unit '" + unit + "'");
}

// A finite number, as the report reads one; empty for anything else (absent, null, text).
std::optional<double> number(const nlohmann::json& entry, const char* field) {
  const auto found = entry.find(field);
  if (found == entry.end() || !found->is_number()) return std::nullopt;
  const double value = found->get<double>();
  return std::isfinite(value) ? std::optional(value) : std::nullopt;
}

bool damaged_in(const nlohmann::json& entry) {
  return std::ranges::any_of(checked_figures, [&](const checked_figure& figure) {
    const auto found = entry.find(std::string(figure.name));
    if (found == entry.end()) return false;
    return !found->is_number() || damaged(found->get<double>(), figure.positive);
  });
}

void add_entry(rows_by_key& rows, const nlohmann::json& entry, const std::string& run_name) {
  auto& row = rows[run_name];
  if (entry.value("error_occurred", false)) {
    row.failed = true;
    return;
  }
  if (!entry.contains("real_time"))
    throw std::invalid_argument("results: " + run_name + " has no real_time");
  // A repetition beside a damaged figure is no evidence either: it is left out, and the row fails.
  if (damaged_in(entry)) {
    row.failed = true;
    return;
  }
  const double seconds =
      entry["real_time"].get<double>() * seconds_per_unit(entry.value("time_unit", "ns"));
  row.figures.push_back({seconds, number(entry, "ci_low"), number(entry, "ci_high")});
  if (const auto floor = number(entry, "floor_seconds")) row.floors.push_back(*floor);
  if (number(entry, "wrong").value_or(0.0) != 0.0) row.failed = true;
}

std::string run_name_of(const nlohmann::json& entry) {
  const auto name = entry.value("run_name", entry.value("name", std::string()));
  if (name.empty()) throw std::invalid_argument("results: a benchmark without a name");
  return name;
}

}  // namespace

std::vector<headline_row> headline_rows_from(const std::vector<measured_run>& runs,
                                             const std::vector<std::string>& failed_names,
                                             const std::vector<efficiency_row>& floors) {
  rows_by_key rows;
  for (const auto& run : runs) {
    auto& row = rows[run.name];
    const auto floor = std::ranges::find(floors, run.name, &efficiency_row::name);
    std::optional<double> floor_seconds;
    if (floor != floors.end()) floor_seconds = floor->floor_seconds;
    // The same checks the report makes of the file these runs are written to.
    bool damage = damaged(run.seconds_per_iteration, true) ||
                  (floor_seconds && damaged(*floor_seconds, true));
    for (const auto& figure : checked_figures) {
      const auto value = counter(run, std::string(figure.name));
      if (value && damaged(*value, figure.positive)) damage = true;
    }
    if (damage) {
      row.failed = true;
      continue;
    }
    row.figures.push_back(
        {run.seconds_per_iteration, counter(run, "ci_low"), counter(run, "ci_high")});
    if (floor_seconds) row.floors.push_back(*floor_seconds);
  }
  for (const auto& name : failed_names)
    rows[name].failed = true;
  return rows.take();
}

std::vector<headline_row> headline_rows_from(const nlohmann::json& results) {
  if (!results.is_object() || !results.contains("benchmarks") || !results["benchmarks"].is_array())
    throw std::invalid_argument("results: not Google Benchmark JSON (no benchmarks)");
  rows_by_key rows;
  std::vector<const nlohmann::json*> aggregates;
  for (const auto& entry : results["benchmarks"]) {
    if (!entry.is_object()) throw std::invalid_argument("results: a benchmark is not an object");
    if (entry.value("run_type", "iteration") == "aggregate") {
      aggregates.push_back(&entry);
    } else {
      add_entry(rows, entry, run_name_of(entry));
    }
  }
  // A run written with --benchmark_report_aggregates_only keeps only the aggregates: the median
  // then stands in for the repetitions.
  for (const auto* entry : aggregates) {
    const auto name = run_name_of(*entry);
    if (!rows.contains(name) && entry->value("aggregate_name", "") == "median")
      add_entry(rows, *entry, name);
  }
  return rows.take();
}

}  // namespace handoff::bench

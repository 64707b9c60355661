#include "headline_text.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace handoff::bench {
namespace {

// The report's marks for "no figure", "times" and "micro", as it prints them (UTF-8).
constexpr std::string_view none_mark = "\u2013";
constexpr std::string_view times_mark = "\u00d7";
constexpr std::string_view micro_mark = "\u00b5";

constexpr std::array<std::string_view, 6> columns = {
    "pattern", "point", "recipe", "fastest", "best CPU way", "fastest over recipe"};

// printf's %g is Python's format(x, ".Ng"): both drop trailing zeros and switch to an exponent
// at the same places.
std::string number_text(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.*g", digits, value);
  return text;
}

std::array<std::string, columns.size()> cells(const headline_line& line) {
  return {line.pattern,
          line.point,
          entry_text(line.recipe),
          entry_text(line.fastest),
          entry_text(line.best_cpu),
          speedup_text(line)};
}

}  // namespace

std::string seconds_text(std::optional<double> seconds) {
  if (!seconds || std::isnan(*seconds)) return std::string(none_mark);
  const double magnitude = std::fabs(*seconds);
  if (magnitude >= 1.0) return number_text(*seconds, 4) + " s";
  if (magnitude >= 1e-3) return number_text(*seconds / 1e-3, 4) + " ms";
  if (magnitude >= 1e-6)
    return number_text(*seconds / 1e-6, 4) + " " + std::string(micro_mark) + "s";
  return number_text(*seconds / 1e-9, 4) + " ns";
}

std::string percent_text(std::optional<double> fraction) {
  if (!fraction || std::isnan(*fraction)) return std::string(none_mark);
  char text[64];
  std::snprintf(text, sizeof(text), "%.1f%%", 100.0 * *fraction);
  return text;
}

std::string entry_text(const std::optional<headline_entry>& entry) {
  if (!entry) return std::string(none_mark);
  const auto& row = entry->row;
  std::string text = entry->variant() + " " + seconds_text(row.median_seconds());
  if (const auto interval = row.interval()) {
    text.append(" [").append(seconds_text(interval->first));
    text.append(", ").append(seconds_text(interval->second)).append("]");
  }
  if (const auto floor = row.floor_seconds()) {
    const auto efficiency = row.efficiency();
    text.append(", floor ").append(seconds_text(*floor));
    text.append(" (").append(percent_text(efficiency)).append(")");
    // Faster than its floor: the floor's model or a ceiling is wrong, or the run is.
    if (efficiency && *efficiency > 1.0) text += " SUSPECT";
  }
  return text;
}

std::string speedup_text(const headline_line& line) {
  const auto speedup = line.speedup();
  if (!speedup) return std::string(none_mark);
  std::string text = number_text(*speedup, 3) + std::string(times_mark);
  if (const auto interval = line.speedup_interval()) {
    text.append(" [").append(number_text(interval->first, 3));
    text.append(", ").append(number_text(interval->second, 3)).append("]");
  }
  return text;
}

std::string headline_text_table(const std::vector<headline_line>& lines) {
  std::string text;
  for (const auto& line : lines) {
    if (!text.empty()) text += "\n";
    const auto row = cells(line);
    text += line.pattern + "\n";
    for (std::size_t column = 1; column < columns.size(); ++column) {
      char name[32];
      std::snprintf(name, sizeof(name), "  %-20s ", std::string(columns[column]).c_str());
      text += name + row[column] + "\n";
    }
  }
  return text.empty() ? "\n" : text;
}

std::string headline_markdown_table(const std::vector<headline_line>& lines) {
  // A '|' inside a cell would end it.
  const auto escaped = [](const std::string& cell) {
    std::string text;
    for (const char c : cell) {
      if (c == '|') text += '\\';
      text += c;
    }
    return text;
  };
  std::string text = "|";
  for (const auto column : columns) {
    text += ' ';
    text += column;
    text += " |";
  }
  text += "\n|";
  for (std::size_t i = 0; i < columns.size(); ++i)
    text += "---|";
  text += "\n";
  for (const auto& line : lines) {
    text += "|";
    for (const auto& cell : cells(line)) {
      text += ' ';
      text += escaped(cell);
      text += " |";
    }
    text += "\n";
  }
  return text;
}

}  // namespace handoff::bench

#include "floor_model.hpp"

#include <algorithm>
#include <cstdio>
#include <span>
#include <string_view>

namespace handoff::bench {
namespace {

// Three significant figures with an SI prefix: 268 MB, 4.98 GB/s, 8.77 µs. The prefix is chosen
// for the value as printed, so 999.7 kB reads 1 MB, not 1e+03 kB.
std::string si(double value, std::string_view unit) {
  struct prefix {
    double scale;
    const char* name;
  };
  static constexpr prefix for_seconds[] = {{1, ""}, {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}};
  static constexpr prefix for_rest[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}};
  const std::span<const prefix> prefixes =
      unit == "s" ? std::span<const prefix>(for_seconds) : std::span<const prefix>(for_rest);
  prefix chosen = prefixes.back();
  for (const auto& p : prefixes) {
    if (value / p.scale >= 0.9995) {
      chosen = p;
      break;
    }
  }
  const double shown = value / chosen.scale;
  char text[48];
  // Past the largest prefix (a floor of minutes), whole units rather than an exponent.
  std::snprintf(text, sizeof(text), shown >= 999.5 ? "%.0f %s%.*s" : "%.3g %s%.*s", shown,
                chosen.name, static_cast<int>(unit.size()), unit.data());
  return text;
}

std::string describe(const floor_term& term) {
  switch (term.what) {
    case floor_term::kind::bytes:
      return term.name + " " + si(term.amount, "B") + " at " + si(term.figure, "B/s") + " (" +
             si(term.seconds, "s") + ")";
    case floor_term::kind::events: {
      char count[32];
      std::snprintf(count, sizeof(count), "%g", term.amount);
      std::string text = term.name + " " + count + " x " + si(term.figure, "s");
      if (term.amount != 1.0) text += " (" + si(term.seconds, "s") + ")";
      return text;
    }
    case floor_term::kind::seconds:
      return term.name + " " + si(term.seconds, "s") + " measured";
  }
  return term.name;
}

}  // namespace

std::string describe_floor(const efficiency_row& row) {
  if (row.terms.empty()) return {};
  const bool launches_only = std::ranges::all_of(row.terms, [](const floor_term& term) {
    return term.what == floor_term::kind::events && term.name.starts_with("kernel_launch");
  });
  std::string text = launches_only ? "launches only: " : "";
  if (row.overlapped && row.terms.size() > 1) text += "slowest of: ";
  const std::string_view joiner = row.overlapped ? " | " : " + ";
  for (std::size_t i = 0; i < row.terms.size(); ++i) {
    if (i > 0) text += joiner;
    text += describe(row.terms[i]);
  }
  return text;
}

}  // namespace handoff::bench

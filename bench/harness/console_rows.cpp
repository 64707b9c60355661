#include "console_rows.hpp"

#include <cstdio>
#include <string_view>

namespace handoff::bench {
namespace {

using Run = benchmark::BenchmarkReporter::Run;

double counter_or(const Run& run, std::string_view name, double fallback) {
  const auto found = run.counters.find(std::string(name));
  return found == run.counters.end() ? fallback : found->second.value;
}

// Google Benchmark 1.8 renamed a failed row's error to a skip.
template <class Row>
std::string failure_of(const Row& run) {
  if constexpr (requires { run.skip_message; }) {
    return run.skipped ? run.skip_message : std::string();
  } else {
    return run.error_occurred ? run.error_message : std::string();
  }
}

std::string padded(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

}  // namespace

std::string console_header(std::size_t name_width) {
  char columns[96];
  std::snprintf(columns, sizeof columns, " %14s %8s %8s %6s  %s\n", "Time", "Noise", "Samples",
                "Wrong", "Flags");
  const std::string head = padded("Benchmark", name_width) + columns;
  return std::string(head.size() - 1, '-') + "\n" + head + std::string(head.size() - 1, '-') + "\n";
}

std::string console_row(const Run& run, std::size_t name_width) {
  const std::string name = padded(run.benchmark_name(), name_width);
  if (const std::string failure = failure_of(run); !failure.empty())
    return name + " ERROR: " + failure + "\n";
  char time[32];
  std::snprintf(time, sizeof time, "%.4g %s", run.GetAdjustedRealTime(),
                benchmark::GetTimeUnitString(run.time_unit));
  char noise[16] = "-";
  if (const double value = counter_or(run, "noise", -1.0); value >= 0.001) {
    std::snprintf(noise, sizeof noise, "±%.1f%%", value * 100.0);
  } else if (value >= 0.0) {
    std::snprintf(noise, sizeof noise, "<0.1%%");
  }
  std::string flags;
  if (counter_or(run, "noisy", 0.0) > 0.0) flags += " noisy";
  if (counter_or(run, "clock_lowered", 0.0) > 0.0) flags += " clock-lowered";
  char line[96];
  std::snprintf(line, sizeof line, " %14s %9s %8.0f %6.0f ", time, noise,
                counter_or(run, "samples", 0.0), counter_or(run, "wrong", 0.0));
  std::string row = name + line + flags;
  while (row.ends_with(' '))
    row.pop_back();
  return row + "\n";
}

}  // namespace handoff::bench

#include "sample_counters.hpp"

#include <cmath>

namespace handoff::bench {

void set_sample_counters(benchmark::UserCounters& counters, const sample_report& report) {
  counters["samples"] = static_cast<double>(report.samples);
  // One sample has no spread to measure: its noise is unknown, not zero, so none is written.
  if (const double noise = report.interval.noise(); report.samples >= 2 && std::isfinite(noise))
    counters["noise"] = noise;
  counters["ci_low"] = report.interval.low;
  counters["ci_high"] = report.interval.high;
  counters["fastest_seconds"] = report.interval.fastest;
  counters["noise_target"] = report.fixed ? 0.0 : report.target;
  counters["noisy"] = report.noisy ? 1 : 0;
  counters["fixed_samples"] = report.fixed ? 1 : 0;
  counters["clock"] = static_cast<double>(report.clock);
  counters["warmup_runs"] = report.warmup_runs;
  if (report.clocks) {
    counters["sm_clock_mhz"] = report.clocks->sm_mhz;
    counters["mem_clock_mhz"] = report.clocks->memory_mhz;
    counters["sm_clock_max_mhz"] = report.clocks->sm_max_mhz;
    counters["clock_event_reasons"] = static_cast<double>(report.clocks->reasons);
    counters["clock_lowered"] = report.clocks->lowered() ? 1 : 0;
  }
  if (report.pinned_core) counters["pinned_core"] = *report.pinned_core;
  if (report.switches) {
    counters["voluntary_switches_per_run"] = report.switches->voluntary;
    counters["involuntary_switches_per_run"] = report.switches->involuntary;
  }
  if (report.planted > 0.0) {
    counters["planted_slowdown"] = report.planted;
    if (report.planted_actual) counters["planted_actual"] = *report.planted_actual;
  }
}

}  // namespace handoff::bench

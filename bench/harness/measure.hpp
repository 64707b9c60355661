#pragma once
// The one timing loop, with three clocks. GPU-only regions are timed with CUDA events on the
// variant's stream; regions that involve host work with the wall clock; a hand-off that spans
// processes by the variant's own clock (its body returns the seconds). The variant driver
// (driver.hpp) and the ceilings use it.
//
// A row is one Google Benchmark iteration. Inside it the loop runs the body once untimed (first
// touches, lazy loading), warms up until the times stop drifting and, on a GPU row, the SM clock
// has left idle, then takes samples, one timed run each, until the stopping rule (sampling.hpp)
// is met: the row's figure, its manual time, is the median sample. Outputs are poisoned before
// every run and after_run() is called after every sample of the figure, both outside the timing.
// Rows with a fixed count (a cold start each) take exactly that many samples, untargeted. The
// counters in sample_counters.hpp say how the figure was obtained.

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <vector>

#include "bench_config.hpp"
#include "context_switches.hpp"
#include "core_pin.hpp"
#include "gpu_clocks.hpp"
#include "handoff/stream.hpp"
#include "handoff/wall_clock.hpp"
#include "interruption.hpp"
#include "planted_delay.hpp"
#include "planted_half.hpp"
#include "registration.hpp"
#include "sample_counters.hpp"
#include "sampling.hpp"
#include "spin_cost.hpp"

namespace handoff::bench {

inline constexpr auto nothing_after_run = [] {};
using nothing_after_run_type = decltype(nothing_after_run);

struct region_options {
  bool uses_gpu = false;     // wait for the SM clock to leave idle; record the clocks
  int fixed_samples = 0;     // above 0: exactly this many samples, untargeted
  bool on_one_core = false;  // the run uses the calling thread alone: hold it on one core
};

struct region_result {
  std::size_t samples = 0;
  double median_seconds = 0.0;
  double mean_seconds = 0.0;
};

namespace detail {

// A microsecond row can take millions of samples within its time cap; past this many its noise
// is long below any target, and the memory stays bounded (16 MiB).
inline constexpr std::size_t most_samples = std::size_t{1} << 21;
// Two consecutive warm-up batches whose medians agree this closely: the times stopped drifting.
inline constexpr double settled_drift = 0.02;
inline constexpr double warmup_batch_seconds = 0.01;
inline constexpr int warmup_batch_runs = 3;

// Runs of timed_run() (one poisoned, timed run each) for at least a batch's time and runs, or
// until the deadline; returns their median, or 0 when none ran.
template <class TimedRun>
double batch_median(TimedRun&& timed_run, int& runs, wall_clock::time_point deadline) {
  std::vector<double> seconds;
  const auto start = wall_clock::now();
  while (static_cast<int>(seconds.size()) < warmup_batch_runs ||
         seconds_since(start) < warmup_batch_seconds) {
    seconds.push_back(timed_run());
    ++runs;
    if (wall_clock::now() >= deadline || run_interrupted()) break;
  }
  std::ranges::sort(seconds);
  return seconds.empty() ? 0.0 : seconds[seconds.size() / 2];
}

// Until two batches agree and the GPU (for a GPU row) has left idle, or the warm-up time is up.
template <class TimedRun>
int warm_up(TimedRun&& timed_run, const region_options& options, double budget,
            double& last_median) {
  int runs = 0;
  if (budget <= 0.0) return runs;
  const auto deadline = wall_clock::now() + std::chrono::duration_cast<wall_clock::duration>(
                                                std::chrono::duration<double>(budget));
  double previous = 0.0;
  while (wall_clock::now() < deadline && !run_interrupted()) {
    last_median = batch_median(timed_run, runs, deadline);
    const bool settled = previous > 0.0 && std::abs(last_median / previous - 1.0) <= settled_drift;
    const auto clocks = options.uses_gpu ? read_gpu_clocks() : std::nullopt;
    if (settled && !(clocks && clocks->idle())) break;
    previous = last_median;
  }
  return runs;
}

// Aims the delay at the row's plain median (the warm-up's last, or one batch when there was no
// warm-up) and returns the fraction it realised, where it was measured. A busy wait on the host
// adds exactly its own length to every run, so its aim stands and no run is added: a planted
// process reaches its samples after the same runs as a plain one, and a row still warming (a
// worker process, a pipe) is not warmer in the planted run than in the plain one. A kernel spun
// on the stream also pays a launch and may start late, so a CUDA-event row's delay is corrected
// from delayed batches, within a factor of 2 of the aim, where that fixed cost is large against
// the delay.
template <class TimedRun>
std::optional<double> calibrate(planted_delay& delay, bool on_stream, TimedRun&& timed_run,
                                double warm_median, int& runs) {
  const auto deadline = wall_clock::now() + std::chrono::seconds(2);
  const planted_delay none;
  const double plain = warm_median > 0.0
                           ? warm_median
                           : batch_median([&] { return timed_run(none); }, runs, deadline);
  if (!(plain > 0.0)) return std::nullopt;
  delay.aim_at(plain);
  if (!on_stream || !delay.fixed_cost_matters(spin_fixed_seconds())) return std::nullopt;
  constexpr int steps = 3;
  double realised = 0.0;
  for (int step = 0; step < steps; ++step) {
    realised = batch_median([&] { return timed_run(delay); }, runs, deadline) / plain - 1.0;
    if (step + 1 < steps) delay.correct(realised);
  }
  return realised;
}

// One row's samples, and when they are enough: a fixed count, or the stopping rule.
struct sample_series {
  sample_series(const sampling_settings& settings, int fixed_count)
      : rule(settings), fixed_samples(fixed_count) {}
  void add(double sample) {
    seconds.push_back(sample);
    timed_seconds += sample;
  }
  bool done(double elapsed_seconds) {
    if (fixed_samples > 0) return seconds.size() >= static_cast<std::size_t>(fixed_samples);
    return rule.should_stop(seconds, timed_seconds, elapsed_seconds) ||
           seconds.size() >= most_samples;
  }
  // Fills report's interval, count and noisy flag; returns the median.
  double describe(sample_report& report) {
    report.noisy = fixed_samples == 0 && rule.stopped_at_cap();
    report.interval = median_with_interval(seconds);
    report.samples = seconds.size();
    return report.interval.median;
  }

  std::vector<double> seconds;
  double timed_seconds = 0.0;
  stopping_rule rule;
  int fixed_samples;
};

// Keeps a planted delay at its fraction of the latest plain samples (the median of the last few,
// so that one outlier does not set it); a row of fixed samples, never calibrated, is aimed here.
inline void follow_recent_samples(planted_delay& delay, const std::vector<double>& plain) {
  constexpr std::size_t recent = 5;
  if (plain.empty()) return;
  std::vector<double> last(plain.end() - static_cast<long>(std::min(recent, plain.size())),
                           plain.end());
  std::ranges::nth_element(last, last.begin() + static_cast<long>(last.size() / 2));
  const double median = last[last.size() / 2];
  if (delay.delay_seconds() > 0.0) {
    delay.follow(median);
  } else {
    delay.aim_at(median);
  }
}

// time_one(body, delay) runs body once, with delay inside the timed region, and returns its
// seconds.
template <class TimeOne, class Poison, class Body, class AfterRun>
region_result sample(benchmark::State& state, const row_context& row, sample_clock clock,
                     const region_options& options, TimeOne& time_one, Poison& poison, Body& body,
                     AfterRun& after_run) {
  const auto& settings = row.config.sampling;
  const int fixed_samples = row.config.fixed_samples_here(options.fixed_samples);
  const core_pin pin(options.on_one_core);
  const bool fixed = fixed_samples > 0;
  const planted_delay none;
  planted_delay delay = planted_delay::for_row(row.config.plant, row.name, row.pass);
  const auto timed_run = [&](const planted_delay& with) {
    poison();
    return static_cast<double>(time_one(body, with));
  };
  sample_report report;
  report.pinned_core = pin.core();
  report.clock = clock;
  report.fixed = fixed;
  report.target = settings.max_noise;
  poison();
  time_one(body, none);
  // Read before the warm-up rather than between it and the samples, where the scan's gap could
  // let a spinning worker fall asleep before the first sample.
  const switches_while_running switches;
  if (!fixed) {
    double warm_median = 0.0;
    report.warmup_runs =
        warm_up([&] { return timed_run(none); }, options, settings.max_warmup_seconds, warm_median);
    if (delay.active()) {
      report.planted_actual = calibrate(delay, clock == sample_clock::cuda_events, timed_run,
                                        warm_median, report.warmup_runs);
    }
  }
  gpu_clock_watch clocks;
  if (options.uses_gpu) clocks.add(read_gpu_clocks());

  const bool in_pairs = row.config.plant.alternation == plant_alternation::samples;
  sample_series series(settings, fixed_samples);
  sample_series planted(settings, fixed_samples);
  const auto start = wall_clock::now();
  while (!run_interrupted()) {
    if (!in_pairs) {
      series.add(timed_run(delay));
      after_run();
    } else {
      // Plain first in even pairs and planted first in odd ones, so that whatever the second run
      // of a pair inherits from the first (warmer caches, a worker just woken) falls on both. The
      // first pair is plain first, so the delay is always aimed at a plain sample already taken.
      // after_run() follows the plain runs only: what it adds up is per sample of the row's figure.
      const bool planted_first = series.seconds.size() % 2 == 1;
      for (int half = 0; half < 2; ++half) {
        if ((half == 0) == planted_first) {
          if (delay.active()) follow_recent_samples(delay, series.seconds);
          planted.add(timed_run(delay));
        } else {
          series.add(timed_run(none));
          after_run();
        }
      }
    }
    const double elapsed = seconds_since(start);
    const bool done = series.done(elapsed);
    if (done && (!in_pairs || planted.done(elapsed))) break;
  }
  report.switches = switches.per_run(static_cast<std::size_t>(report.warmup_runs) +
                                     series.seconds.size() + planted.seconds.size());
  if (options.uses_gpu) clocks.add(read_gpu_clocks());
  report.clocks = clocks.seen;
  if (in_pairs) {
    sample_report planted_report = report;
    planted_report.planted = delay.fraction();
    const double plain_median = series.describe(report);
    const double planted_median = planted.describe(planted_report);
    planted_half half{row.name, planted_median / plain_median, {}};
    if (!(half.time_ratio > 0.0) || !std::isfinite(half.time_ratio)) half.time_ratio = 1.0;
    planted_report.planted_actual = half.time_ratio - 1.0;
    set_sample_counters(half.counters, planted_report);
    hold_planted_half(std::move(half));
  } else {
    report.planted = delay.fraction();
    series.describe(report);
  }
  set_sample_counters(state, report);
  const double count = static_cast<double>(std::max<std::size_t>(1, series.seconds.size()));
  return {series.seconds.size(), report.interval.median, series.timed_seconds / count};
}

template <class TimeOne, class Poison, class Body, class AfterRun>
region_result measure_region(benchmark::State& state, const row_context& row, sample_clock clock,
                             const region_options& options, TimeOne&& time_one, Poison&& poison,
                             Body&& body, AfterRun&& after_run) {
  // handoff_bench sets Google Benchmark's minimum time so that it runs one iteration; a program
  // that does not (a test) gets further iterations, which repeat the figure instead of sampling
  // again.
  std::optional<region_result> result;
  for (auto _ : state) {
    if (!result) result = sample(state, row, clock, options, time_one, poison, body, after_run);
    // An empty row (interrupted before its first sample) still reports a positive time.
    state.SetIterationTime(std::max(result->median_seconds, 1e-12));
  }
  return result.value_or(region_result{});
}

}  // namespace detail

template <class Poison, class Body, class AfterRun = nothing_after_run_type>
region_result measure_gpu_region(benchmark::State& state, const row_context& row,
                                 cudaStream_t stream, Poison&& poison, Body&& body,
                                 AfterRun&& after_run = {}, region_options options = {}) {
  const event start;
  const event stop;
  const auto time_with_events = [&](auto& run, const planted_delay& delay) {
    start.record(stream);
    run();
    if (delay.active()) delay.on_stream(stream);
    stop.record(stream);
    return elapsed_milliseconds(start, stop) * 1e-3;
  };
  options.uses_gpu = true;
  return detail::measure_region(state, row, sample_clock::cuda_events, options, time_with_events,
                                poison, body, after_run);
}

template <class Poison, class Body, class AfterRun = nothing_after_run_type>
region_result measure_wall_region(benchmark::State& state, const row_context& row, Poison&& poison,
                                  Body&& body, AfterRun&& after_run = {},
                                  region_options options = {}) {
  const auto time_with_wall_clock = [](auto& run, const planted_delay& delay) {
    const auto start = wall_clock::now();
    run();
    if (delay.active()) delay.busy_wait();
    return seconds_since(start);
  };
  return detail::measure_region(state, row, sample_clock::wall, options, time_with_wall_clock,
                                poison, body, after_run);
}

// body() returns the seconds it measured itself.
template <class Poison, class Body, class AfterRun = nothing_after_run_type>
region_result measure_self_timed_region(benchmark::State& state, const row_context& row,
                                        Poison&& poison, Body&& body, AfterRun&& after_run = {},
                                        region_options options = {}) {
  const auto as_reported = [](auto& run, const planted_delay& delay) {
    double seconds = static_cast<double>(run());
    if (delay.active()) seconds += delay.measured_busy_wait();
    return seconds;
  };
  return detail::measure_region(state, row, sample_clock::self, options, as_reported, poison, body,
                                after_run);
}

}  // namespace handoff::bench

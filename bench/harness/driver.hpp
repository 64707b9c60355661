#pragma once
// The one measurement driver: every pattern's rows run through measure_variant. For one row of a
// pattern's variant table at one point it keeps the case (seeded inputs, outputs, reference) and,
// for warm figures, the set-up session of the latest configuration; poisons, times with the row's
// clock, adds up the stage times, verifies the last run, records wrong and verified, and sets the
// traffic, figure and floor counters. Any exception fails the row (register_benchmark's guard)
// and drops what the failed run left behind.

#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <utility>

#include "handoff/patterns/pattern_spec.hpp"
#include "handoff/patterns/pattern_sweep.hpp"
#include "handoff/patterns/variant.hpp"
#include "handoff/wall_clock.hpp"
#include "latest_cache.hpp"
#include "measure.hpp"
#include "outcome.hpp"
#include "registration.hpp"
#include "stage_counters.hpp"
#include "traffic.hpp"

namespace handoff::bench {

// What a pattern declares for the driver, and the two figures of a row, as the pattern layer
// names them.
using patterns::pattern_spec;
using patterns::start;

template <class Point>
struct session_key {
  std::string_view variant;
  Point at;
  patterns::compute_target target;
  bool operator==(const session_key&) const = default;
};

template <class Point, class Case>
latest_cache<Point, Case>& cases_of() {
  static latest_cache<Point, Case> cache;
  return cache;
}

template <class Point, class Case>
latest_cache<session_key<Point>, patterns::session<Case>>& sessions_of() {
  static latest_cache<session_key<Point>, patterns::session<Case>> cache;
  return cache;
}

// What a table's row declares of itself, for the record of a run's variants.
struct noted_row {
  std::string_view name;
  std::string_view description;
  bool recipe = false;  // the article's own way
  bool cpu = false;     // a CPU way, which every machine runs; the others need a GPU for a row
};

// Every table whose rows were registered, and which of its rows were: a smoke run proves that no
// variant of a table lost its rows (variants_without_rows).
void note_registered(const void* table_identity, std::string_view pattern, std::string_view variant,
                     const std::vector<noted_row>& table_rows);
// "pattern/variant" of each row of a noted table that got no benchmark. Without a GPU only the CPU
// variants must have rows: whether a host stand-in gets rows is each pattern's choice.
std::vector<std::string> variants_without_rows(bool machine_has_gpu);
// The run's variants as JSON, for its context (handoff_variants): each pattern of a noted table,
// with its variants in table order (a name two tables of one pattern share, once), each {"name",
// "description", "recipe", "cpu"}. The report describes each pattern's variants from it.
std::string variants_json();
// "pattern/variant" of each row of a noted table that does not say what it does.
std::vector<std::string> variants_without_description();

void set_figures(benchmark::State& state, const std::vector<patterns::named_figure>& figures);
void set_floor(benchmark::State& state, const patterns::floor_terms& floor);

namespace detail {

// Times samples of one session with the row's clock.
template <class Case, class Run>
region_result time_runs(benchmark::State& state, const row_context& context,
                        patterns::clock_kind clock, const region_options& options,
                        patterns::session<Case>& s, Case& work, patterns::stage_times& stages,
                        Run&& run) {
  patterns::run_result last;
  const auto poison = [&] { s.poison(work); };
  const auto add_stages = [&] { stages += last.stages; };
  switch (clock) {
    case patterns::clock_kind::cuda_events:
      return measure_gpu_region(
          state, context, s.stream(), poison, [&] { last = run(); }, add_stages, options);
    case patterns::clock_kind::self:
      return measure_self_timed_region(
          state, context, poison,
          [&] {
            last = run();
            return last.seconds;
          },
          add_stages, options);
    case patterns::clock_kind::wall:
      break;
  }
  return measure_wall_region(
      state, context, poison, [&] { last = run(); }, add_stages, options);
}

}  // namespace detail

template <class Point, class Case, class Specifics>
void measure_variant(benchmark::State& state, const row_context& context,
                     const pattern_spec<Point, Case, Specifics>& spec,
                     const patterns::variant_row<Point, Case, Specifics>& row, const Point& at,
                     patterns::compute_target target, start how, int cold_samples) {
  const auto row_started = wall_clock::now();
  auto& sessions = sessions_of<Point, Case>();
  auto& work = cases_of<Point, Case>().get(at, [&] { return spec.make_case(at); });
  const session_key<Point> key{row.name, at, target};
  patterns::stage_times stages;
  region_result measured;
  const region_options options{.uses_gpu = target == patterns::compute_target::device,
                               .fixed_samples = how == start::cold ? cold_samples : 0,
                               .on_one_core = row.threads == patterns::host_threads::calling_only};
  std::unique_ptr<patterns::session<Case>> fresh;  // a cold row's latest session
  patterns::session<Case>* used = nullptr;
  try {
    if (how == start::cold && row.cold == patterns::cold_kind::fresh_setup) {
      // Set-up is timed, so the previous run's session goes away before the clock starts and
      // the outputs are poisoned through the case (the new session does not exist yet).
      sessions.drop();
      state.counters["setup_seconds"] = seconds_since(row_started);
      const auto poison_and_clear = [&] {
        // Shut down as its user would, so that a worker that ended badly after its last batch
        // is an error here rather than a process quietly killed.
        if (fresh) fresh->shutdown();
        fresh.reset();
        work.poison();
      };
      patterns::run_result last;
      measured = measure_wall_region(
          state, context, poison_and_clear,
          [&] {
            fresh = row.setup(at, target);
            last = fresh->run(work);
          },
          [&] { stages += last.stages; }, options);
      used = fresh.get();
    } else {
      auto& warm = sessions.get(key, [&] { return row.setup(at, target); });
      used = &warm;
      state.counters["setup_seconds"] = seconds_since(row_started);
      measured = how == start::cold
                     ? detail::time_runs(state, context, row.clock, options, warm, work, stages,
                                         [&] { return warm.run_cold(work); })
                     : detail::time_runs(state, context, row.clock, options, warm, work, stages,
                                         [&] { return warm.run(work); });
    }
  } catch (...) {
    sessions.drop();
    throw;
  }
  const auto verify_started = wall_clock::now();
  record_verification(state, used->verify(work));
  if (fresh) fresh->shutdown();  // a cold row's last pool exits cleanly, as its user's would
  // Where a row's time goes besides its samples, for whoever sizes a profile: set-up (the case,
  // the session, and retiring the previous ones) and the check of the outputs.
  state.counters["verify_seconds"] = seconds_since(verify_started);
  // Stages are summed over the samples (never the warm-up runs): per run, against the mean
  // sample, so that wait is the rest of an average run.
  const double runs = std::max<double>(1.0, static_cast<double>(measured.samples));
  patterns::stage_times reported = stages;
  reported.scale(1.0 / runs);
  const auto per_run = used->stages_per_run(reported, measured.mean_seconds);
  if (row.reports_stages) {
    set_stage_counters(state, per_run.stages,
                       per_run.span_the_run ? per_run.stages.total() : measured.mean_seconds);
  }
  const auto [bytes, items] = spec.traffic(at);
  set_traffic(state, bytes, items);
  if (spec.figures) set_figures(state, spec.figures(at));
  auto session_figures = used->figures();
  set_figures(state, session_figures);
  if (row.floor) {
    set_floor(state, row.floor(at, target,
                               {.cold = how == start::cold,
                                .stages_per_run = per_run.stages,
                                .figures = std::move(session_figures)}));
  }
}

// Registers one row under name; cold rows take a fixed count of samples, as stated.
template <class Point, class Case, class Specifics>
benchmark::internal::Benchmark* register_variant(
    const pattern_spec<Point, Case, Specifics>& spec,
    const patterns::variant_row<Point, Case, Specifics>& row, const Point& at,
    patterns::compute_target target, start how, const std::string& name, int cold_iterations = 3) {
  std::vector<noted_row> table_rows;
  for (const auto& each : spec.table) {
    table_rows.push_back({.name = each.name,
                          .description = each.description,
                          .recipe = each.recipe,
                          .cpu = each.targets.cpu});
  }
  note_registered(spec.table.data(), spec.pattern, row.name, table_rows);
  return register_benchmark(name, [&spec, &row, at, target, how, cold_iterations](
                                      benchmark::State& s, const row_context& context) {
    measure_variant(s, context, spec, row, at, target, how, cold_iterations);
  });
}

}  // namespace handoff::bench

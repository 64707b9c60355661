#include "run_reporter.hpp"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>

#include "bench_config.hpp"
#include "interruption.hpp"
#include "library_build_note.hpp"
#include "planted_half.hpp"
#include "results_file.hpp"

namespace handoff::bench {

display_format parse_display_format(std::string_view value) {
  if (value == "console") return display_format::console;
  if (value == "json") return display_format::json;
  if (value == "csv") return display_format::csv;
  throw std::invalid_argument("handoff_bench: --benchmark_format is console, json or csv, not '" +
                              std::string(value) + "'");
}

namespace {

std::unique_ptr<benchmark::BenchmarkReporter> display_for(display_format format) {
  switch (format) {
    case display_format::console:
      break;
    case display_format::json:
      return std::make_unique<benchmark::JSONReporter>();
    case display_format::csv:
// Google Benchmark has deprecated its CSV reporter but still prints CSV for --benchmark_format=csv,
// and so does this run, until Google Benchmark drops it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
      return std::make_unique<benchmark::CSVReporter>();
#pragma GCC diagnostic pop
  }
  return nullptr;
}

}  // namespace

void run_reporter::google_output::report(const std::vector<Run>& runs) {
  if (!reporter) return;
  if (held_to_the_end) {
    held.insert(held.end(), runs.begin(), runs.end());
  } else {
    reporter->ReportRuns(runs);
  }
}

void run_reporter::google_output::finish() {
  if (!reporter) return;
  if (!held.empty()) reporter->ReportRuns(held);
  reporter->Finalize();
}

run_reporter::run_reporter(OutputOptions options, display_format format, results_writer& writer,
                           progress_lines* progress, const plain_results_file& plain_file,
                           const bench_config& config)
    : summarising_reporter(options),
      display_{display_for(format), format == display_format::csv, {}},
      writer_(writer),
      progress_(progress),
      passes_(config.passes),
      in_pairs_(config.plant.alternation == plant_alternation::samples) {
  set_processes(config.processes);
  if (plain_file.path.empty()) return;
  plain_file_path_ = plain_file.path;
  plain_file_.reporter = display_for(plain_file.format);
  plain_file_.held_to_the_end = plain_file.format == display_format::csv;
  if (!plain_file_.reporter)
    plain_file_.reporter = std::make_unique<benchmark::ConsoleReporter>(OO_None);
  plain_file_.reporter->SetOutputStream(&plain_file_stream_);
  plain_file_.reporter->SetErrorStream(&plain_file_stream_);
}

bool run_reporter::ReportContext(const Context& context) {
  if (context_reported_) return true;
  context_reported_ = true;
  writer_.begin(context);
  if (plain_file_.reporter) {
    auto& reporter = *plain_file_.reporter;
    report_context_explained(reporter, [&] { return reporter.ReportContext(context); });
  }
  if (display_.reporter) {
    auto& reporter = *display_.reporter;
    return report_context_explained(reporter, [&] { return reporter.ReportContext(context); });
  }
  return report_context_explained(*this,
                                  [&] { return summarising_reporter::ReportContext(context); });
}

void run_reporter::ReportRuns(const std::vector<Run>& reports) {
  if (run_interrupted() || reports.empty()) return;
  const auto stamped = stamp_passes(reports);
  plain_file_.report(stamped);
  display_.report(stamped);
  if (!display_.reporter) benchmark::ConsoleReporter::ReportRuns(stamped);
  // The summary prices the rows' figures: planted halves (a test hook) are not figures.
  std::vector<Run> figures;
  for (const auto& run : stamped) {
    if (!in_pairs_ || run.repetition_index % 2 == 0) figures.push_back(run);
  }
  collect(figures);
  writer_.add(stamped);
  writer_.snapshot(runs());
  if (progress_) progress_->row_finished(reports.front().run_name.function_name);
}

std::vector<run_reporter::Run> run_reporter::stamp_passes(const std::vector<Run>& reports) const {
  const int pass_index = current_pass() - 1;
  std::vector<Run> stamped;
  if (in_pairs_) {
    // Each repetition becomes two: its plain samples, then its planted ones.
    stamped.reserve(2 * reports.size());
    for (const auto& run : reports) {
      if (run.run_type != Run::RT_Iteration) continue;
      // A repetition that failed before it sampled holds no half.
      auto half = run_failed(run) ? std::nullopt : take_planted_half(run.run_name.function_name);
      const auto per_pass = static_cast<std::int64_t>(std::max<std::int64_t>(1, run.repetitions));
      auto& plain = stamped.emplace_back(run);
      plain.repetition_index = 2 * (pass_index * per_pass + run.repetition_index);
      plain.repetitions = 2 * per_pass * passes_;
      if (!half) continue;
      auto& planted = stamped.emplace_back(plain);
      planted.repetition_index += 1;
      planted.real_accumulated_time *= half->time_ratio;
      for (auto& [name, counter] : half->counters)
        planted.counters[name] = counter;
    }
    return stamped;
  }
  stamped = reports;
  // In a run of several passes (--handoff-passes), each row is written as the repetition of
  // the pass it ran in (its Google Benchmark repetitions numbered within the pass).
  if (passes_ > 1) {
    for (auto& run : stamped) {
      if (run.run_type != Run::RT_Iteration) continue;
      const auto per_pass = std::max<std::int64_t>(1, run.repetitions);
      run.repetition_index = pass_index * per_pass + run.repetition_index;
      run.repetitions = per_pass * passes_;
    }
  }
  return stamped;
}

void run_reporter::finish(const std::string& incomplete_reason) {
  if (progress_) progress_->finished();
  // A run that reported nothing (no row matched) has no document to close.
  if (context_reported_) {
    plain_file_.finish();
    display_.finish();
    if (!plain_file_path_.empty()) write_plain_file();
  }
  if (display_.reporter) {
    // Standard output holds Google Benchmark's JSON or CSV, which a line of ours would corrupt.
    print_end_of_run(std::cerr);
  } else {
    summarising_reporter::Finalize();
  }
  writer_.finish(runs(), incomplete_reason);
}

void run_reporter::write_plain_file() {
  try {
    replace_file_atomically(plain_file_path_, plain_file_stream_.str());
  } catch (const results_file_error& error) {
    plain_file_failure_ = "cannot write the results file " + plain_file_path_ + ": " + error.what();
    std::cerr << "handoff_bench: " << plain_file_failure_ << "\n";
  }
}

}  // namespace handoff::bench

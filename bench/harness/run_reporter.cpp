#include "run_reporter.hpp"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>

#include "bench_config.hpp"
#include "interruption.hpp"
#include "planted_half.hpp"

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

run_reporter::run_reporter(OutputOptions options, display_format format, results_writer& writer,
                           progress_lines* progress, const plain_results_file& plain_file)
    : summarising_reporter(options),
      display_(display_for(format)),
      writer_(writer),
      progress_(progress) {
  if (plain_file.path.empty()) return;
  plain_file_stream_.open(plain_file.path);
  if (!plain_file_stream_) {
    throw std::runtime_error("handoff_bench: cannot write " + plain_file.path);
  }
  plain_file_ = display_for(plain_file.format);
  if (!plain_file_) plain_file_ = std::make_unique<benchmark::ConsoleReporter>(OO_None);
  plain_file_->SetOutputStream(&plain_file_stream_);
  plain_file_->SetErrorStream(&plain_file_stream_);
}

bool run_reporter::ReportContext(const Context& context) {
  if (context_reported_) return true;
  context_reported_ = true;
  writer_.begin(context);
  if (plain_file_) plain_file_->ReportContext(context);
  if (display_) return display_->ReportContext(context);
  return summarising_reporter::ReportContext(context);
}

void run_reporter::ReportRuns(const std::vector<Run>& reports) {
  if (run_interrupted() || reports.empty()) return;
  const auto stamped = stamp_passes(reports);
  if (plain_file_) plain_file_->ReportRuns(stamped);
  if (display_) {
    display_->ReportRuns(stamped);
    collect(stamped);
  } else {
    summarising_reporter::ReportRuns(stamped);
  }
  writer_.add(stamped);
  writer_.snapshot(runs());
  if (progress_) progress_->row_finished(reports.front().run_name.function_name);
}

std::vector<run_reporter::Run> run_reporter::stamp_passes(const std::vector<Run>& reports) {
  const auto& config = active_config();
  const int pass_index = current_pass() - 1;
  std::vector<Run> stamped;
  if (config.plant.alternation == plant_alternation::samples) {
    // Each repetition becomes two: its plain samples, then its planted ones.
    for (const auto& run : reports) {
      if (run.run_type != Run::RT_Iteration) continue;
      auto half = take_planted_half(run.run_name.function_name);
      const auto per_pass = static_cast<std::int64_t>(std::max<std::int64_t>(1, run.repetitions));
      auto& plain = stamped.emplace_back(run);
      plain.repetition_index = 2 * (pass_index * per_pass + run.repetition_index);
      plain.repetitions = 2 * per_pass * config.passes;
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
  // the pass it ran in.
  if (config.passes > 1) {
    for (auto& run : stamped) {
      run.repetition_index = pass_index;
      run.repetitions = config.passes;
    }
  }
  return stamped;
}

void run_reporter::finish(const std::string& incomplete_reason) {
  if (progress_) progress_->finished();
  if (plain_file_) plain_file_->Finalize();
  if (display_) {
    display_->Finalize();
    print_summary(std::cerr, runs());
  } else {
    summarising_reporter::Finalize();
  }
  writer_.finish(runs(), incomplete_reason);
}

}  // namespace handoff::bench

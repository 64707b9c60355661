#include "results_writer.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

#include "bounded_json.hpp"
#include "process_identity.hpp"
#include "results_annotation.hpp"

namespace handoff::bench {
namespace {

// What Google Benchmark's JSON reporter writes in Finalize, to close the array and the object.
constexpr std::string_view json_closing = "\n  ]\n}\n";

}  // namespace

results_writer::results_writer(std::string path) : path_(std::move(path)) {
  json_.SetOutputStream(&buffer_);
  json_.SetErrorStream(&std::cerr);
}

void results_writer::begin(const benchmark::BenchmarkReporter::Context& context) {
  // A filtered run measures the ceilings it needs in a second round, which reports its context
  // again: the file keeps the first.
  if (!enabled() || begun_) return;
  json_.ReportContext(context);
  begun_ = true;
}

void results_writer::add(const std::vector<benchmark::BenchmarkReporter::Run>& reports) {
  if (!enabled() || reports.empty()) return;
  json_.ReportRuns(reports);
  ++rows_;
}

void results_writer::snapshot(const std::vector<measured_run>& runs, bool force) {
  if (!enabled() || !begun_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_write_ < std::chrono::seconds(1)) return;
  write(runs, false, "still running");
  last_write_ = now;
}

void results_writer::finish(const std::vector<measured_run>& runs,
                            const std::string& incomplete_reason) {
  if (!enabled() || !begun_) return;
  write(runs, incomplete_reason.empty(), incomplete_reason);
}

void results_writer::write(const std::vector<measured_run>& runs, bool complete,
                           const std::string& reason) {
  try {
    auto results =
        nlohmann::json::parse(with_non_finite_as_null(buffer_.str() + std::string(json_closing)));
    annotate(results, runs);
    for (auto& row : results["benchmarks"])
      row["handoff_process"] = this_process().token;
    results["handoff_run"] = {{"state", complete ? "complete" : "incomplete"},
                              {"reason", complete ? "" : reason},
                              {"rows", rows_}};
    write_json_atomically(path_, results);
    failure_.clear();
  } catch (const std::exception& error) {
    // A snapshot that cannot be written must not end the measurements: the next write may succeed
    // (space freed), and the last one decides the run's exit code.
    const std::string failure = "cannot write the results file " + path_ + ": " + error.what();
    // Once, not at every snapshot of a run whose disk stays full.
    if (failure != failure_) std::cerr << "handoff_bench: " << failure << "\n";
    failure_ = failure;
  }
}

}  // namespace handoff::bench

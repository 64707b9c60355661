#include "run_reporter.hpp"

#include "interruption.hpp"

namespace handoff::bench {

run_reporter::run_reporter(OutputOptions options, results_writer& writer, progress_lines* progress)
    : summarising_reporter(options), writer_(writer), progress_(progress) {}

bool run_reporter::ReportContext(const Context& context) {
  if (context_reported_) return true;
  context_reported_ = true;
  writer_.begin(context);
  return summarising_reporter::ReportContext(context);
}

void run_reporter::begin_pass(int pass, int passes) {
  pass_ = pass;
  passes_ = passes;
}

void run_reporter::ReportRuns(const std::vector<Run>& reports) {
  if (run_interrupted() || reports.empty()) return;
  std::vector<Run> stamped = reports;
  if (passes_ > 1) {
    for (auto& run : stamped) {
      run.repetition_index = pass_ - 1;
      run.repetitions = passes_;
    }
  }
  summarising_reporter::ReportRuns(stamped);
  writer_.add(stamped);
  writer_.snapshot(runs());
  if (progress_) progress_->row_finished(reports.front().run_name.function_name);
}

void run_reporter::finish(const std::string& incomplete_reason) {
  if (progress_) progress_->finished();
  summarising_reporter::Finalize();
  writer_.finish(runs(), incomplete_reason);
}

}  // namespace handoff::bench

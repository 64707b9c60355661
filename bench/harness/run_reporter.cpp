#include "run_reporter.hpp"

#include "bench_config.hpp"
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

void run_reporter::ReportRuns(const std::vector<Run>& reports) {
  if (run_interrupted() || reports.empty()) return;
  // In a run of several passes (--handoff-passes), each row is written as the repetition of
  // the pass it ran in.
  std::vector<Run> stamped = reports;
  if (const int passes = active_config().passes; passes > 1) {
    for (auto& run : stamped) {
      run.repetition_index = current_pass() - 1;
      run.repetitions = passes;
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

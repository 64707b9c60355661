#pragma once
// The reporter of a handoff_bench run: the console table and summary (summarising_reporter), the
// results file rewritten as rows finish (results_writer), and the per-family progress lines. A run
// may call Google Benchmark more than once (a filtered run measures the ceilings its rows need
// afterwards), so the summary and the last write wait for finish(). Rows reported after an
// interrupt were cut short or skipped: they are left out.

#include "progress.hpp"
#include "results_writer.hpp"

namespace handoff::bench {

class run_reporter : public summarising_reporter {
 public:
  run_reporter(OutputOptions options, results_writer& writer, progress_lines* progress);
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& reports) override;
  void Finalize() override {}
  void finish(const std::string& incomplete_reason);

 private:
  // Numbers each row by its pass (--handoff-passes); sampled in pairs
  // (--handoff-plant-alternate=samples), each row becomes its plain half and its planted half.
  static std::vector<Run> stamp_passes(const std::vector<Run>& reports);

  results_writer& writer_;
  progress_lines* progress_;
  bool context_reported_ = false;
};

}  // namespace handoff::bench

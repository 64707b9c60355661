#pragma once
// The reporter of a handoff_bench run: the console table and summary (summarising_reporter), the
// results file rewritten as rows finish (results_writer), and the per-family progress lines. A run
// may call Google Benchmark more than once (a filtered run measures the ceilings its rows need
// afterwards), so the summary and the last write wait for finish(). Rows reported after an
// interrupt were cut short or skipped: they are left out.

#include <memory>
#include <sstream>
#include <string>
#include <string_view>

#include "bench_config.hpp"
#include "progress.hpp"
#include "results_writer.hpp"

namespace handoff::bench {

// What the run prints on standard output, as Google Benchmark's --benchmark_format: the console
// table followed by the summary against the ceilings, or Google Benchmark's own JSON or CSV, for
// tools that read it there (the summary then goes to standard error).
enum class display_format { console, json, csv };

// The value of --benchmark_format; std::invalid_argument for any other.
display_format parse_display_format(std::string_view value);

// --benchmark_out with --benchmark_out_format=console or csv: Google Benchmark's own output in that
// format, written here, since Google Benchmark reopens (and so empties) its file at each of a
// run's calls into it (passes, and the ceilings a filtered run measures after its rows).
struct plain_results_file {
  std::string path;  // empty: none
  display_format format = display_format::console;
};

class run_reporter : public summarising_reporter {
 public:
  // config: the run's settings, for its passes and whether rows were sampled in pairs.
  run_reporter(OutputOptions options, display_format format, results_writer& writer,
               progress_lines* progress, const plain_results_file& plain_file = {},
               const bench_config& config = {});
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& reports) override;
  void Finalize() override {}
  void finish(const std::string& incomplete_reason);
  // Why the plain results file (--benchmark_out_format=console or csv) was not written; empty when
  // it was, or when there is none.
  const std::string& plain_file_failure() const noexcept { return plain_file_failure_; }

 private:
  // Numbers each row by its pass (--handoff-passes); sampled in pairs
  // (--handoff-plant-alternate=samples), each row becomes its plain half and its planted half.
  std::vector<Run> stamp_passes(const std::vector<Run>& reports) const;
  void write_plain_file();

  // Google Benchmark's JSON or CSV reporter for standard output or the plain results file. Its
  // CSV reporter fixes its columns at the first rows it gets and rejects a later row with another
  // counter, and handoff's rows differ in counters (GPU clocks, stages, floors): CSV is held back
  // and written at the end, all rows at once.
  struct google_output {
    std::unique_ptr<benchmark::BenchmarkReporter> reporter;
    bool held_to_the_end = false;
    std::vector<Run> held;
    void report(const std::vector<Run>& runs);
    void finish();
  };

  // Null reporter for the console table, which this reporter prints itself.
  google_output display_;
  // Held here and written whole at the end, through results_file's rules.
  std::string plain_file_path_;
  std::ostringstream plain_file_stream_;
  std::string plain_file_failure_;
  google_output plain_file_;
  results_writer& writer_;
  progress_lines* progress_;
  int passes_ = 1;
  bool in_pairs_ = false;
  bool context_reported_ = false;
};

}  // namespace handoff::bench

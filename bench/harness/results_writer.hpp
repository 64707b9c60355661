#pragma once
// The results file, written as rows finish rather than once at the end: each snapshot is Google
// Benchmark's JSON of the rows so far, annotated (ceilings, floors, efficiency) and marked
// "incomplete" in "handoff_run", so that a run that is interrupted, killed or still going always
// leaves a file the report reads. The last write marks it "complete", or says why it is not.

#include <benchmark/benchmark.h>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

#include "ceiling_summary.hpp"

namespace handoff::bench {

class results_writer {
 public:
  explicit results_writer(std::string path);
  bool enabled() const noexcept { return !path_.empty(); }

  void begin(const benchmark::BenchmarkReporter::Context& context);
  void add(const std::vector<benchmark::BenchmarkReporter::Run>& reports);
  // Rewrites the file if a second has passed since the last write, or always when forced.
  void snapshot(const std::vector<measured_run>& runs, bool force = false);
  // The last write: complete, unless incomplete_reason says why not.
  void finish(const std::vector<measured_run>& runs, const std::string& incomplete_reason);
  // Empty while every write so far succeeded, or once the last one did; else why the file does
  // not hold this run's results, for the run's last line and its exit code.
  const std::string& failure() const noexcept { return failure_; }

 private:
  void write(const std::vector<measured_run>& runs, bool complete, const std::string& reason);

  std::string path_;
  std::ostringstream buffer_;
  benchmark::JSONReporter json_;
  bool begun_ = false;
  std::size_t rows_ = 0;
  std::chrono::steady_clock::time_point last_write_{};
  std::string failure_;
};

}  // namespace handoff::bench

#pragma once
// Debian's Google Benchmark library is built without NDEBUG, so the context it prints warns that
// it "was built as DEBUG. Timings may be affected." Every handoff row is timed by handoff itself
// (CUDA events or its own clock, reported as manual time), so that build never enters a figure:
// the warning is replaced by a line that says so.

#include <benchmark/benchmark.h>

#include <sstream>
#include <string>

namespace handoff::bench {

// `printed` with Google Benchmark's DEBUG warning line replaced by handoff's note; unchanged where
// it has none.
std::string with_library_build_explained(std::string printed);

// Runs `report` (a reporter's ReportContext) with the reporter's error stream, where the context
// goes, passed through with_library_build_explained.
template <class Report>
bool report_context_explained(benchmark::BenchmarkReporter& reporter, Report&& report) {
  std::ostream& errors = reporter.GetErrorStream();
  std::ostringstream captured;
  reporter.SetErrorStream(&captured);
  const bool reported = report();
  reporter.SetErrorStream(&errors);
  errors << with_library_build_explained(captured.str());
  return reported;
}

}  // namespace handoff::bench

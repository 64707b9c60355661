// The shared measurement and verification step, run through Google Benchmark itself: outputs are
// poisoned before every timed run, so a variant that stops writing is caught.

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "handoff/reference/inputs.hpp"
#include "harness/measure.hpp"
#include "harness/outcome.hpp"

namespace handoff::bench {
namespace {

class counting_reporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override { reported += runs.size(); }
  std::size_t reported = 0;
};

// Writes the right answer on its first `writes` runs only, like a variant whose later runs skip
// their copy back.
class writes_first_runs_only {
 public:
  writes_first_runs_only(std::vector<float> expected, int writes)
      : expected_(std::move(expected)), out_(expected_.size()), writes_left_(writes) {}
  void poison_output() { reference::poison(out_); }
  void run() {
    if (writes_left_-- > 0) std::ranges::copy(expected_, out_.begin());
  }
  const std::vector<float>& expected() const { return expected_; }
  const std::vector<float>& out() const { return out_; }

 private:
  std::vector<float> expected_, out_;
  int writes_left_;
};

int failures_of_one_run(const char* name, writes_first_runs_only& variant) {
  // What is checked is the poisoning, not a figure: sampling is kept short.
  bench_config quick;
  quick.sampling.timeout_seconds = 0.05;
  quick.sampling.min_time_seconds = 0.01;
  quick.sampling.max_warmup_seconds = 0.02;
  const std::string row_name = name;
  benchmark::RegisterBenchmark(name, [&variant, quick, row_name](benchmark::State& state) {
    measure_wall_region(
        state, row_context{.config = quick, .name = row_name}, [&] { variant.poison_output(); },
        [&] { variant.run(); });
    record_verification(state, reference::verify_elementwise(variant.expected(), variant.out()));
  })->UseManualTime();
  counting_reporter reporter;
  const int before = failed_benchmark_count();
  // Google Benchmark appends /manual_time/iterations:1 to the name.
  benchmark::RunSpecifiedBenchmarks(&reporter, std::string("^") + name + "/");
  EXPECT_EQ(reporter.reported, 1u) << name << " did not run";
  return failed_benchmark_count() - before;
}

TEST(MeasureWallRegion, AVariantThatWritesEveryRunPasses) {
  writes_first_runs_only variant(std::vector<float>(64, 1.5f), std::numeric_limits<int>::max());
  EXPECT_EQ(failures_of_one_run("harness_test/writes_every_run", variant), 0);
}

TEST(MeasureWallRegion, AVariantThatStopsWritingAfterWarmUpFails) {
  // The warm-up run writes; the timed runs do not. Without poisoning before each timed run, the
  // warm-up's output would pass verification.
  writes_first_runs_only variant(std::vector<float>(64, 1.5f), 1);
  EXPECT_EQ(failures_of_one_run("harness_test/writes_once", variant), 1);
}

}  // namespace
}  // namespace handoff::bench

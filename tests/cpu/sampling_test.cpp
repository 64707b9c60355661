// The statistics a row's figure rests on: the median's distribution-free 95% interval from order
// statistics, the stopping rule, and a row's sample counters through Google Benchmark, including a
// planted slowdown.

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "harness/bench_config.hpp"
#include "harness/measure.hpp"
#include "harness/registration.hpp"
#include "harness/sampling.hpp"

namespace handoff::bench {
namespace {

// P(Binomial(n, 1/2) <= k), exactly, by summing the binomial coefficients.
double binomial_cdf(std::size_t n, std::size_t k) {
  double coefficient = 1.0;
  double sum = 0.0;
  for (std::size_t i = 0; i <= k; ++i) {
    sum += coefficient;
    coefficient = coefficient * static_cast<double>(n - i) / static_cast<double>(i + 1);
  }
  return sum / std::pow(2.0, static_cast<double>(n));
}

TEST(MedianInterval, RanksCoverTheMedianWithAtLeast95Percent) {
  EXPECT_EQ(lower_rank_of_median_interval(5), 0u);  // 1 - 2/32 < 95%: no interval exists
  EXPECT_EQ(lower_rank_of_median_interval(6), 1u);
  EXPECT_EQ(lower_rank_of_median_interval(10), 2u);
  EXPECT_EQ(lower_rank_of_median_interval(100), 40u);
  for (std::size_t n = 6; n <= 300; ++n) {
    const std::size_t j = lower_rank_of_median_interval(n);
    ASSERT_GE(j, 1u) << n;
    // x_(j) <= median <= x_(n+1-j) fails when fewer than j samples lie below the median, or
    // fewer than j above it: each tail is P(B <= j - 1).
    EXPECT_LE(2 * binomial_cdf(n, j - 1), 0.05 + 1e-12) << n;
    // And j is the largest such rank: one more would drop below 95%.
    EXPECT_GT(2 * binomial_cdf(n, j), 0.05) << n;
  }
}

TEST(MedianInterval, TheNormalApproximationContinuesTheExactRanks) {
  const double exact = static_cast<double>(lower_rank_of_median_interval(400));
  const double approximate = static_cast<double>(lower_rank_of_median_interval(401));
  EXPECT_NEAR(approximate, exact, 1.0);
}

TEST(MedianInterval, MedianAndEndsOfKnownSamples) {
  std::vector<double> samples(10);
  std::iota(samples.begin(), samples.end(), 1.0);  // 1..10
  std::ranges::reverse(samples);
  const auto interval = median_with_interval(samples);
  EXPECT_DOUBLE_EQ(interval.median, 5.5);
  EXPECT_DOUBLE_EQ(interval.low, 2.0);  // ranks 2 and 9
  EXPECT_DOUBLE_EQ(interval.high, 9.0);
  EXPECT_DOUBLE_EQ(interval.noise(), 3.5 / 5.5);
  EXPECT_DOUBLE_EQ(interval.fastest, 1.0);
  std::vector<double> few{3.0, 1.0, 2.0};
  const auto whole_range = median_with_interval(few);
  EXPECT_DOUBLE_EQ(whole_range.median, 2.0);
  EXPECT_DOUBLE_EQ(whole_range.low, 1.0);
  EXPECT_DOUBLE_EQ(whole_range.high, 3.0);
}

sampling_settings settings(double max_noise, int min_samples, double min_time, double timeout) {
  sampling_settings result;
  result.max_noise = max_noise;
  result.min_samples = min_samples;
  result.min_time_seconds = min_time;
  result.timeout_seconds = timeout;
  return result;
}

TEST(StoppingRule, StopsAtTheTargetOnlyWithEnoughSamplesAndTime) {
  stopping_rule rule(settings(0.01, 10, 0.5, 10.0));
  std::vector<double> samples(9, 0.1);
  EXPECT_FALSE(rule.should_stop(samples, 0.9, 0.9));  // 9 samples: fewer than 10
  samples.push_back(0.1);
  EXPECT_FALSE(rule.should_stop(samples, 0.4, 0.9));  // 0.4 timed seconds: less than 0.5
  EXPECT_TRUE(rule.should_stop(samples, 1.0, 1.0));
  EXPECT_FALSE(rule.stopped_at_cap());
}

TEST(StoppingRule, StopsAtTheCapAndSaysWhetherItWasAboveTheTarget) {
  stopping_rule noisy(settings(0.01, 2, 0.0, 1.0));
  std::vector<double> spread{1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0};
  EXPECT_FALSE(noisy.should_stop(spread, 36.0, 0.5));
  EXPECT_TRUE(noisy.should_stop(spread, 36.0, 1.0));
  EXPECT_TRUE(noisy.stopped_at_cap());
  stopping_rule quiet(settings(0.01, 10, 100.0, 1.0));
  std::vector<double> same(20, 2.0);
  EXPECT_TRUE(quiet.should_stop(same, 40.0, 1.5));  // at the cap, but within the target
  EXPECT_FALSE(quiet.stopped_at_cap());
  stopping_rule short_of_samples(settings(0.01, 10, 0.0, 1.0));
  std::vector<double> one{2.0};  // a one-sample "interval" is a point, not a measured noise
  EXPECT_TRUE(short_of_samples.should_stop(one, 2.0, 2.0));
  EXPECT_TRUE(short_of_samples.stopped_at_cap());
}

void spin_for(double seconds) {
  const auto start = wall_clock::now();
  while (seconds_since(start) < seconds) {
  }
}

std::map<std::string, double> counters_of(const std::string& name, int fixed_samples,
                                          const bench_config& config = {}) {
  struct capture : benchmark::BenchmarkReporter {
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>& runs) override {
      for (const auto& [counter, value] : runs.front().counters)
        counters[counter] = value.value;
      real_seconds = runs.front().real_accumulated_time;
    }
    std::map<std::string, double> counters;
    double real_seconds = 0.0;
  } reporter;
  set_registering_family("sampling_test", config);
  register_benchmark(name, [fixed_samples](benchmark::State& state, const row_context& context) {
    measure_wall_region(
        state, context, [] {}, [] { spin_for(200e-6); }, nothing_after_run,
        {.uses_gpu = false, .fixed_samples = fixed_samples});
  })->Iterations(1);  // as handoff_bench's own minimum time makes it
  set_registering_family("other");
  benchmark::RunSpecifiedBenchmarks(&reporter, "^" + name + "/");
  reporter.counters["real_seconds"] = reporter.real_seconds;
  return reporter.counters;
}

TEST(SampledRow, ReportsItsSamplesNoiseAndIntervalAndTheMedianAsItsTime) {
  const auto counters = counters_of("sampling_test/warm", 0);
  EXPECT_GE(counters.at("samples"), bench_config{}.sampling.min_samples);
  EXPECT_EQ(counters.at("fixed_samples"), 0);
  EXPECT_EQ(counters.at("clock"), 1);  // the wall clock
  EXPECT_DOUBLE_EQ(counters.at("noise_target"), bench_config{}.sampling.max_noise);
  EXPECT_LE(counters.at("ci_low"), counters.at("real_seconds"));
  EXPECT_GE(counters.at("ci_high"), counters.at("real_seconds"));
  EXPECT_GT(counters.at("fastest_seconds"), 0.0);
  EXPECT_LE(counters.at("fastest_seconds"), counters.at("ci_low"));
  EXPECT_GE(counters.at("real_seconds"), 200e-6);
  EXPECT_FALSE(counters.contains("planted_slowdown"));
}

TEST(SampledRow, AFixedCountTakesExactlyThatManySamples) {
  const auto counters = counters_of("sampling_test/fixed", 4);
  EXPECT_EQ(counters.at("samples"), 4);
  EXPECT_EQ(counters.at("fixed_samples"), 1);
  EXPECT_EQ(counters.at("noise_target"), 0);
  EXPECT_EQ(counters.at("warmup_runs"), 0);
}

TEST(SampledRow, OneSampleHasNoNoiseToReport) {
  EXPECT_TRUE(counters_of("sampling_test/two", 2).contains("noise"));
  const auto counters = counters_of("sampling_test/one", 1);
  EXPECT_EQ(counters.at("samples"), 1);
  EXPECT_FALSE(counters.contains("noise"));
}

TEST(SampledRow, APlantedSlowdownSlowsOnlyTheRowsItNames) {
  bench_config config;
  config.plant.fraction = 1.0;
  config.plant.rows_regex = "^sampling_test/planted/";
  const auto plain = counters_of("sampling_test/unplanted", 0, config);
  const auto planted = counters_of("sampling_test/planted", 0, config);
  EXPECT_FALSE(plain.contains("planted_slowdown"));
  ASSERT_TRUE(planted.contains("planted_slowdown"));
  EXPECT_DOUBLE_EQ(planted.at("planted_slowdown"), 1.0);
  // Loose bounds only: the two rows are timed apart on a loaded machine, and unit tests hold no
  // timing targets. A plant of 100% is read as one only if the plain row's median stays within
  // about 1.6x of itself, which a 20% plant with bounds of 10% and 40% did not leave room for.
  const double slowdown = planted.at("real_seconds") / plain.at("real_seconds") - 1.0;
  EXPECT_GT(slowdown, 0.25);
  EXPECT_LT(slowdown, 4.0);
  // A busy wait on the host is aimed, not calibrated by extra runs, so nothing was measured.
  EXPECT_FALSE(planted.contains("planted_actual"));
}

}  // namespace
}  // namespace handoff::bench

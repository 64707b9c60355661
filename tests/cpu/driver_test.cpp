// The one measurement driver, run through Google Benchmark itself on a toy pattern: a row that
// verifies passes with its stages, traffic, figures and floor counted; a variant that stops
// writing after its warm-up fails on the poisoned output; a cold row sets the variant up for every
// timed run and shuts the last one down; a throwing variant fails its row without ending the run.

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "handoff/reference/inputs.hpp"
#include "harness/driver.hpp"

namespace handoff::bench {
namespace {

using patterns::compute_target;

struct toy_point {
  std::size_t count = 64;
  bool operator==(const toy_point&) const = default;
};

struct toy_case {
  explicit toy_case(std::size_t count) : expected(count, 1.5f), out(count) {}
  void poison() { reference::poison(out); }
  reference::verification_result verify() const {
    return reference::verify_elementwise(expected, out);
  }
  std::vector<float> expected, out;
};

// More runs than any sampling takes.
constexpr int writes_always = std::numeric_limits<int>::max();

int setups = 0;
int shutdowns = 0;

class copies : public patterns::session<toy_case> {
 public:
  explicit copies(int writes) : writes_left_(writes) {}
  patterns::run_result run(toy_case& work) override {
    if (writes_left_-- > 0) std::ranges::copy(work.expected, work.out.begin());
    return {.seconds = 0, .stages = {.h2d = 1e-6, .kernel = 2e-6}};
  }
  std::vector<patterns::named_figure> figures() const override { return {{"toy_figure", 7}}; }
  void shutdown() override { ++shutdowns; }

 private:
  int writes_left_;
};

// Times no stage of its own: its whole run is the kernel stage.
class whole_kernel final : public copies {
 public:
  whole_kernel() : copies(writes_always) {}
  patterns::run_result run(toy_case& work) override {
    copies::run(work);
    return {};
  }
  patterns::stages_of_a_run stages_per_run(const patterns::stage_times&,
                                           double mean_seconds) override {
    return patterns::whole_run_as(&patterns::stage_times::kernel, mean_seconds);
  }
};

class throws : public patterns::session<toy_case> {
 public:
  patterns::run_result run(toy_case&) override { throw std::runtime_error("worker-0 exited 3"); }
};

template <int Writes>
std::unique_ptr<patterns::session<toy_case>> set_up(const toy_point&, compute_target) {
  ++setups;
  return std::make_unique<copies>(Writes);
}

std::unique_ptr<patterns::session<toy_case>> set_up_whole_kernel(const toy_point&, compute_target) {
  return std::make_unique<whole_kernel>();
}

std::unique_ptr<patterns::session<toy_case>> set_up_throwing(const toy_point&, compute_target) {
  return std::make_unique<throws>();
}

patterns::floor_terms toy_floor(const toy_point& at, compute_target,
                                const patterns::measured_run&) {
  return patterns::floor_terms{}.add_bytes("pcie_h2d_pinned", 4.0 * static_cast<double>(at.count));
}

using toy_row = patterns::variant_row<toy_point, toy_case>;
constexpr patterns::runs_on host_only{.host_stand_in = true};
const toy_row toy_rows[] = {
    {.name = "writes",
     .targets = host_only,
     .cold = patterns::cold_kind::fresh_setup,
     .setup = set_up<writes_always>,
     .floor = toy_floor},
    {.name = "writes_once", .targets = host_only, .setup = set_up<1>},
    {.name = "throws", .targets = host_only, .setup = set_up_throwing},
    {.name = "stageless",
     .targets = host_only,
     .reports_stages = false,
     .setup = set_up<writes_always>},
    {.name = "whole_kernel", .targets = host_only, .setup = set_up_whole_kernel},
};

const pattern_spec<toy_point, toy_case> toy_spec{
    .pattern = "toy",
    .table = toy_rows,
    .make_case = [](const toy_point& at) { return std::make_unique<toy_case>(at.count); },
    .traffic =
        [](const toy_point& at) {
          const auto n = static_cast<double>(at.count);
          return std::pair{8.0 * n, n};
        },
    .figures =
        [](const toy_point&) {
          return std::vector<patterns::named_figure>{{"workers", 2}};
        }};

class capturing_reporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& run : runs) {
      for (const auto& [name, counter] : run.counters)
        counters[name] = counter.value;
    }
    reported += runs.size();
  }
  std::map<std::string, double> counters;
  std::size_t reported = 0;
};

struct outcome {
  capturing_reporter reporter;
  int failures = 0;
};

// These tests check what the driver records, not figures: a row stops at its minimum of samples
// whatever their noise. A short timeout stops it sooner on a loaded machine, short of that
// minimum, so the timeout only turns a hang into a failure.
void sample_briefly() {
  bench_config quick;
  quick.sampling.max_noise = std::numeric_limits<double>::infinity();
  quick.sampling.timeout_seconds = 60;
  quick.sampling.min_time_seconds = 0.01;
  quick.sampling.max_warmup_seconds = 0.02;
  set_registering_family("driver_test", quick);
}

outcome run_row(std::string_view variant, start how) {
  sample_briefly();
  const auto name =
      "driver_test/" + std::string(variant) + (how == start::cold ? "/cold" : "/warm");
  register_variant(toy_spec, patterns::find_row(toy_spec.table, variant), toy_point{},
                   compute_target::host_stand_in, how, name)
      ->Iterations(1);  // as handoff_bench's own minimum time makes it
  set_registering_family("other");
  outcome result;
  const int before = failed_benchmark_count();
  benchmark::RunSpecifiedBenchmarks(&result.reporter, "^" + name + "/");
  result.failures = failed_benchmark_count() - before;
  EXPECT_EQ(result.reporter.reported, 1u) << name << " did not run";
  return result;
}

TEST(Driver, AVerifiedRowReportsItsStagesTrafficFiguresAndFloor) {
  const auto result = run_row("writes", start::warm);
  EXPECT_EQ(result.failures, 0);
  const auto& counters = result.reporter.counters;
  EXPECT_EQ(counters.at("wrong"), 0);
  EXPECT_EQ(counters.at("verified"), 64);
  EXPECT_NEAR(counters.at("stage.kernel"), 2e-6, 1e-12);  // per run, over the samples
  EXPECT_GE(counters.at("samples"), 10);
  EXPECT_EQ(counters.at("fixed_samples"), 0);
  EXPECT_GT(counters.at("noise_target"), 0);
  EXPECT_LE(counters.at("ci_low"), counters.at("ci_high"));
  EXPECT_EQ(counters.at("bytes"), 512);
  EXPECT_EQ(counters.at("workers"), 2);
  EXPECT_EQ(counters.at("toy_figure"), 7);
  EXPECT_EQ(counters.at("floor_bytes.pcie_h2d_pinned"), 256);
}

TEST(Driver, AVariantWithoutStagesHasNoStageCounters) {
  const auto result = run_row("stageless", start::warm);
  EXPECT_EQ(result.failures, 0);
  EXPECT_FALSE(result.reporter.counters.contains("stage.wait"));
  EXPECT_EQ(result.reporter.counters.at("wrong"), 0);
}

TEST(Driver, ASessionWhoseRunIsOneStageReportsItsMeasuredTimeAsThatStage) {
  const auto result = run_row("whole_kernel", start::warm);
  EXPECT_EQ(result.failures, 0);
  const auto& counters = result.reporter.counters;
  EXPECT_EQ(counters.at("wrong"), 0);
  EXPECT_GT(counters.at("stage.kernel"), 0.0);  // the run reported none: the driver's figure
  EXPECT_EQ(counters.at("stage.h2d"), 0.0);
  EXPECT_EQ(counters.at("stage.wait"), 0.0);
}

TEST(Driver, AVariantThatStopsWritingAfterItsWarmUpFails) {
  const auto result = run_row("writes_once", start::warm);
  EXPECT_EQ(result.failures, 1);
}

TEST(Driver, AColdRowSetsUpForEveryRunAndShutsEachDown) {
  setups = 0;
  shutdowns = 0;
  const auto result = run_row("writes", start::cold);
  EXPECT_EQ(result.failures, 0);
  EXPECT_EQ(setups, 4);  // the untimed first run and the 3 samples a cold row takes
  EXPECT_EQ(result.reporter.counters.at("samples"), 3);
  EXPECT_EQ(result.reporter.counters.at("fixed_samples"), 1);
  // Each session's workers exit as its user's would, so that one that ended badly is seen.
  EXPECT_EQ(shutdowns, 4);
}

TEST(Driver, AThrowingVariantFailsItsRowWithTheMessage) {
  const auto result = run_row("throws", start::warm);
  EXPECT_EQ(result.failures, 1);
}

TEST(Driver, AVariantWithNoRegisteredRowIsNamed) {
  // A second toy table, of which only one row gets a benchmark.
  static const toy_row partly_registered[] = {
      {.name = "registered", .targets = {.cpu = true}, .setup = set_up<writes_always>},
      {.name = "forgotten", .targets = {.cpu = true}, .setup = set_up<writes_always>},
      {.name = "device_only",
       .targets = {.device = true, .host_stand_in = true},
       .setup = set_up<writes_always>},
  };
  static const pattern_spec<toy_point, toy_case> spec{.pattern = "partial",
                                                      .table = partly_registered,
                                                      .make_case = toy_spec.make_case,
                                                      .traffic = toy_spec.traffic};
  register_variant(spec, partly_registered[0], toy_point{}, compute_target::host_stand_in,
                   start::warm, "driver_test/partial/registered");
  const auto without_gpu = variants_without_rows(false);
  EXPECT_NE(std::ranges::find(without_gpu, "partial/forgotten"), without_gpu.end());
  EXPECT_EQ(std::ranges::find(without_gpu, "partial/registered"), without_gpu.end());
  EXPECT_EQ(std::ranges::find(without_gpu, "partial/device_only"), without_gpu.end());
  const auto with_gpu = variants_without_rows(true);
  EXPECT_NE(std::ranges::find(with_gpu, "partial/device_only"), with_gpu.end());
}

TEST(Driver, TheRunRecordsEachPatternsVariantsAsItsTablesDeclareThem) {
  // Two tables of one pattern, which share a variant, as elementwise's do.
  static const toy_row first_table[] = {
      {.name = "cpu_way",
       .description = "one CPU thread",
       .targets = {.cpu = true},
       .setup = set_up<writes_always>},
      {.name = "shared",
       .description = "the first table's words",
       .recipe = true,
       .targets = {.device = true, .host_stand_in = true},
       .setup = set_up<writes_always>},
  };
  static const toy_row second_table[] = {
      {.name = "shared",
       .description = "the second table's words",
       .targets = {.device = true},
       .setup = set_up<writes_always>},
      {.name = "fast", .description = "a \"quoted\" way", .targets = {.device = true}},
  };
  static const pattern_spec<toy_point, toy_case> first{.pattern = "recorded",
                                                       .table = first_table,
                                                       .make_case = toy_spec.make_case,
                                                       .traffic = toy_spec.traffic};
  static const pattern_spec<toy_point, toy_case> second{.pattern = "recorded",
                                                        .table = second_table,
                                                        .make_case = toy_spec.make_case,
                                                        .traffic = toy_spec.traffic};
  register_variant(first, first_table[0], toy_point{}, compute_target::host_stand_in, start::warm,
                   "driver_test/recorded/cpu_way");
  register_variant(second, second_table[0], toy_point{}, compute_target::host_stand_in, start::warm,
                   "driver_test/recorded/shared");
  const auto recorded = nlohmann::json::parse(variants_json()).at("recorded");
  ASSERT_EQ(recorded.size(), 3u);
  EXPECT_EQ(recorded[0], nlohmann::json({{"name", "cpu_way"},
                                         {"description", "one CPU thread"},
                                         {"recipe", false},
                                         {"cpu", true}}));
  EXPECT_EQ(recorded[1].at("name"), "shared");
  EXPECT_EQ(recorded[1].at("description"), "the first table's words");
  EXPECT_EQ(recorded[1].at("recipe"), true);
  EXPECT_EQ(recorded[1].at("cpu"), false);
  EXPECT_EQ(recorded[2].at("description"), "a \"quoted\" way");
}

TEST(Driver, AnUnknownVariantIsInvalidArgument) {
  EXPECT_THROW(patterns::find_row(toy_spec.table, "no_such"), std::invalid_argument);
}

}  // namespace
}  // namespace handoff::bench

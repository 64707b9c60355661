// The headline table at the end of a run: made from the rows the run collected, it is the table
// the report makes from the run's results file; it follows the other summaries on the console,
// and goes to standard error when standard output holds Google Benchmark's JSON or CSV.

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "harness/bounded_json.hpp"
#include "harness/headline_rows.hpp"
#include "harness/headline_summary.hpp"
#include "harness/headline_table.hpp"
#include "harness/headline_text.hpp"
#include "harness/results_annotation.hpp"
#include "harness/results_writer.hpp"
#include "harness/run_reporter.hpp"
#include "support/source_files.hpp"

namespace handoff::bench {
namespace {

using Run = benchmark::BenchmarkReporter::Run;

using test_support::h100_default_profile_run;

nlohmann::json results_of(const std::string& path) {
  return nlohmann::json::parse(with_non_finite_as_null(test_support::file_text(path)));
}

// The file's rows as the reporter collected them during the run (summarising_reporter::collect):
// the verified repetitions with their counters, and the names of the failed ones.
struct collected {
  std::vector<measured_run> runs;
  std::vector<std::string> failed_names;
};

collected as_collected(const nlohmann::json& results) {
  collected rows;
  for (const auto& entry : results["benchmarks"]) {
    if (entry.value("run_type", "") != "iteration") continue;
    const auto name = entry["name"].get<std::string>();
    if (entry.value("error_occurred", false) || entry.value("wrong", 0.0) != 0.0) {
      rows.failed_names.push_back(name);
      continue;
    }
    const double unit = entry["time_unit"] == "us"   ? 1e-6
                        : entry["time_unit"] == "ms" ? 1e-3
                                                     : 1e-9;
    measured_run run{name, entry["real_time"].get<double>() * unit, {}};
    for (const auto& [key, value] : entry.items())
      if (value.is_number() && key != "real_time" && key != "cpu_time") run.counters[key] = value;
    rows.runs.push_back(std::move(run));
  }
  return rows;
}

std::string pool_prep_name(const std::string& variant) {
  return "pool_prep/" + variant + "/chunks:10/elements:1048576/workers:4/start:warm";
}

Run measured(const std::string& function_name, double seconds) {
  Run run;
  run.run_name.function_name = function_name;
  run.run_name.time_type = "manual_time";
  run.run_type = Run::RT_Iteration;
  run.iterations = 1;
  run.real_accumulated_time = seconds;
  run.cpu_accumulated_time = seconds;
  run.time_unit = benchmark::kMillisecond;
  run.counters["ci_low"] = benchmark::Counter(seconds * 0.9);
  run.counters["ci_high"] = benchmark::Counter(seconds * 1.1);
  run.counters["wrong"] = benchmark::Counter(0);
  return run;
}

// A context whose name column has a width: Google Benchmark's console pads names to it.
benchmark::BenchmarkReporter::Context context() {
  benchmark::BenchmarkReporter::Context made;
  made.name_field_width = 80;
  return made;
}

TEST(HeadlineSummary, TheRunsTableIsTheOneItsResultsFileGives) {
  const auto results = results_of(h100_default_profile_run);
  const auto rows = as_collected(results);
  std::ostringstream printed;
  print_headline(printed, rows.runs, rows.failed_names);
  const auto from_file = headline_text_table(headline_table(headline_rows_from(results)));
  EXPECT_NE(printed.str().find("\nHeadline: "), std::string::npos) << printed.str();
  EXPECT_NE(printed.str().find(from_file), std::string::npos)
      << "printed:\n"
      << printed.str() << "\nfrom the file:\n"
      << from_file;
}

TEST(HeadlineSummary, ARunThatMeasuredNothingPrintsNothing) {
  std::ostringstream printed;
  print_headline(printed, {}, {});
  EXPECT_EQ(printed.str(), "");
}

TEST(HeadlineSummary, ARunAtNoDefaultPointSaysSo) {
  std::ostringstream printed;
  print_headline(printed, {{"elementwise/cpu_serial/elements:10/manual_time", 1e-6, {}}}, {});
  EXPECT_NE(printed.str().find("no row of any pattern at its default point"), std::string::npos)
      << printed.str();
}

// What a console run prints when the runs come in this order, one report each.
std::string console_after(const std::vector<Run>& runs) {
  std::ostringstream console;
  results_writer writer("");
  run_reporter reporter(benchmark::ConsoleReporter::OO_None, display_format::console, writer,
                        nullptr);
  reporter.SetOutputStream(&console);
  reporter.SetErrorStream(&console);
  reporter.ReportContext(context());
  for (const auto& run : runs)
    reporter.ReportRuns({run});
  reporter.finish("");
  return console.str();
}

TEST(HeadlineSummary, AWrongRecipeIsLeftOutOfTheRunsTable) {
  auto wrong = measured(pool_prep_name("seed"), 0.03);
  wrong.counters["wrong"] = benchmark::Counter(1);
  const auto text = console_after({measured(pool_prep_name("seed"), 0.035), wrong,
                                   measured(pool_prep_name("shared_gpu"), 0.003)});
  EXPECT_NE(text.find("recipe               \u2013\n"), std::string::npos) << text;
  EXPECT_NE(text.find("fastest              shared_gpu 3 ms [2.7 ms, 3.3 ms]"), std::string::npos)
      << text;
}

TEST(HeadlineSummary, FollowsTheOtherSummariesOnTheConsole) {
  auto seed = measured(pool_prep_name("seed"), 0.035);
  seed.counters["floor_seconds.prep"] = benchmark::Counter(0.007);
  const auto text = console_after({seed, measured(pool_prep_name("shared_gpu"), 0.003)});
  const auto efficiency = text.find("\nEfficiency:");
  const auto headline = text.find("\nHeadline:");
  ASSERT_NE(efficiency, std::string::npos) << text;
  ASSERT_NE(headline, std::string::npos) << text;
  EXPECT_LT(efficiency, headline);
  EXPECT_NE(text.find("recipe               seed 35 ms [31.5 ms, 38.5 ms], floor 7 ms (20.0%)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("fastest over recipe  11.7\u00d7 [9.55, 14.3]"), std::string::npos) << text;
}

TEST(HeadlineSummary, GoesToStandardErrorBesideJsonOnStandardOutput) {
  results_writer writer("");
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  {
    run_reporter reporter(benchmark::ConsoleReporter::OO_None, display_format::json, writer,
                          nullptr);
    reporter.ReportContext(context());
    reporter.ReportRuns({measured(pool_prep_name("seed"), 0.035)});
    reporter.finish("");
  }
  std::cout.flush();
  const auto out = testing::internal::GetCapturedStdout();
  const auto err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(out.find("Headline"), std::string::npos) << out;
  EXPECT_TRUE(nlohmann::json::accept(out)) << out;
  EXPECT_NE(err.find("\nHeadline:"), std::string::npos) << err;
  EXPECT_NE(err.find("pool_prep\n  point"), std::string::npos) << err;
}

}  // namespace
}  // namespace handoff::bench

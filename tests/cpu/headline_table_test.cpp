// The headline table handoff_bench prints at the end of a run is the report's, row by row: on the
// real H100 default-profile run it is the table of docs/results/h100.md, which the report writes
// from that run (reports/tests/test_results_page.py checks that side). Then the rules themselves:
// a missing or failed recipe, no rows, the largest GPU count, the variants left out, and the
// interval of many passes.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/bounded_json.hpp"
#include "harness/headline_rows.hpp"
#include "harness/headline_table.hpp"
#include "harness/headline_text.hpp"
#include "harness/results_annotation.hpp"
#include "support/source_files.hpp"

namespace handoff::bench {
namespace {

using test_support::file_text;
using test_support::h100_default_profile_run;

std::vector<headline_row> rows_of(const std::string& path) {
  return headline_rows_from(nlohmann::json::parse(with_non_finite_as_null(file_text(path))));
}

// The H100 results page's table, between the markers handoff-headline --into writes it between.
std::string h100_page_table() {
  const std::string page = file_text(test_support::source_file("docs/results/h100.md"));
  const std::string begin =
      "<!-- headline: begin (written by handoff-headline --into; do not edit) -->\n";
  const std::string end = "<!-- headline: end -->";
  const auto from = page.find(begin);
  const auto to = page.find(end);
  if (from == std::string::npos || to == std::string::npos || to < from)
    throw std::runtime_error("docs/results/h100.md has no headline block");
  return page.substr(from + begin.size(), to - from - begin.size());
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

const headline_line& line_of(const std::vector<headline_line>& lines, const std::string& pattern) {
  for (const auto& line : lines)
    if (line.pattern == pattern) return line;
  throw std::out_of_range("no headline line for " + pattern);
}

headline_row row(const std::string& name, double seconds, std::optional<double> floor = {}) {
  headline_row made{parse_name_parts(name), {{seconds, seconds * 0.99, seconds * 1.01}}, {}};
  if (floor) made.floors.push_back(*floor);
  return made;
}

TEST(HeadlineTable, TheRealRunGivesItsResultsPagesTableRowByRow) {
  const auto printed = headline_markdown_table(headline_table(rows_of(h100_default_profile_run)));
  const auto expected = lines_of(h100_page_table());
  const auto got = lines_of(printed);
  ASSERT_EQ(got.size(), expected.size()) << printed;
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i], expected[i]) << "row " << i;
  EXPECT_EQ(printed, h100_page_table());
}

TEST(HeadlineTable, TheTextTableIsTheReportsBlockPerPattern) {
  const auto text = headline_text_table(headline_table(rows_of(h100_default_profile_run)));
  // handoff-headline's text output for the same file, its first two blocks.
  const std::string expected =
      "pool_prep\n"
      "  point                chunks:10/elements:1048576/workers:4/start:warm\n"
      "  recipe               seed 35.61 ms [34.99 ms, 36.33 ms], floor 8.399 ms (23.6%)\n"
      "  fastest              shared_gpu 3.031 ms [2.996 ms, 3.076 ms], floor 1.608 ms (53.1%)\n"
      "  best CPU way         cpu_serial 11.09 ms [11.01 ms, 11.18 ms], floor 5.102 ms (46.0%)\n"
      "  fastest over recipe  11.7\u00d7 [11.4, 12.1]\n"
      "\n"
      "queued_worker\n"
      "  point                compute:device/items:10/elements:1048576/start:warm\n"
      "  recipe               seed 79.79 ms [77.12 ms, 86.98 ms], floor 31.09 ms (39.0%)\n"
      "  fastest              streamed 8.845 ms [8.728 ms, 9.103 ms], floor 6.76 ms (76.4%)\n"
      "  best CPU way         streamed (compute:host) 10.92 ms [10.52 ms, 11.24 ms], floor "
      "9.084 ms (83.2%)\n"
      "  fastest over recipe  9.02\u00d7 [8.47, 9.97]\n"
      "\n";
  EXPECT_EQ(text.substr(0, expected.size()), expected);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_NE(text.substr(text.size() - 2), "\n\n");
}

TEST(HeadlineTable, APatternWithoutItsRecipeRowHasNoRecipeAndNoSpeedup) {
  std::vector<headline_row> rows;
  for (auto& one : rows_of(h100_default_profile_run))
    if (!one.name.key.starts_with("pool_prep/seed/")) rows.push_back(std::move(one));
  const auto lines = headline_table(rows);
  const auto pool_prep = line_of(lines, "pool_prep");
  EXPECT_FALSE(pool_prep.recipe.has_value());
  EXPECT_EQ(entry_text(pool_prep.recipe), "\u2013");
  EXPECT_EQ(speedup_text(pool_prep), "\u2013");
  ASSERT_TRUE(pool_prep.fastest.has_value());
  EXPECT_EQ(pool_prep.fastest->variant(), "shared_gpu");
  EXPECT_EQ(lines.size(), 8u) << "the other patterns keep their lines";
}

TEST(HeadlineTable, AFailedRowIsNeverAFigure) {
  auto rows = rows_of(h100_default_profile_run);
  for (auto& one : rows) {
    if (one.name.key.starts_with("pool_prep/seed/") ||
        one.name.key.starts_with("pool_prep/shared_gpu/"))
      one.failed = true;
  }
  const auto lines = headline_table(rows);
  const auto pool_prep = line_of(lines, "pool_prep");
  EXPECT_FALSE(pool_prep.recipe.has_value());
  ASSERT_TRUE(pool_prep.fastest.has_value());
  // The next quickest at the point that is not a CPU way.
  EXPECT_EQ(pool_prep.fastest->variant(), "threads");
}

TEST(HeadlineTable, NoRowsMakeNoTable) {
  EXPECT_TRUE(headline_table({}).empty());
  EXPECT_TRUE(headline_rows_from(nlohmann::json{{"benchmarks", nlohmann::json::array()}}).empty());
  // Rows, but none at a pattern's point: no line either.
  EXPECT_TRUE(headline_table({row("elementwise/gpu_resident/workload:vector_add/elements:1024/"
                                  "start:warm/manual_time",
                                  1e-6)})
                  .empty());
  EXPECT_EQ(headline_text_table({}), "\n");
}

TEST(HeadlineTable, LargestTakesTheMostGpusAndLeavesOutTheKernelAlone) {
  const auto multi_gpu = [](const std::string& variant, int gpus, double seconds) {
    return row("multi_gpu/" + variant + "/workload:scale_by_two/gpus:" + std::to_string(gpus) +
                   "/partitioner:even/elements:268435456/scope:from_host/manual_time",
               seconds);
  };
  const auto lines =
      headline_table({multi_gpu("host_gather", 1, 0.9), multi_gpu("host_gather", 2, 0.5),
                      multi_gpu("nccl_allgather", 2, 0.01), multi_gpu("kernel_only", 2, 0.001)});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].point,
            "workload:scale_by_two/gpus:2/partitioner:even/elements:268435456/scope:from_host");
  ASSERT_TRUE(lines[0].recipe && lines[0].fastest);
  EXPECT_DOUBLE_EQ(lines[0].recipe->row.median_seconds(), 0.5);
  EXPECT_EQ(lines[0].fastest->variant(), "nccl_allgather");
  EXPECT_NEAR(*lines[0].speedup(), 50.0, 1e-9);
  EXPECT_FALSE(lines[0].best_cpu.has_value());
}

TEST(HeadlineTable, ManyPassesGiveTheMediansOwnInterval) {
  headline_row passes{parse_name_parts("iterative/graph/unknowns:1/iterations:1"), {}, {}};
  for (int i = 9; i >= 1; --i)
    passes.figures.push_back({i * 1e-3, i * 1e-3 * 0.5, i * 1e-3 * 2.0});
  // Nine medians: the 95% interval of their median is from the 2nd to the 8th.
  ASSERT_TRUE(passes.interval().has_value());
  EXPECT_DOUBLE_EQ(passes.interval()->first, 2e-3);
  EXPECT_DOUBLE_EQ(passes.interval()->second, 8e-3);
  EXPECT_DOUBLE_EQ(passes.median_seconds(), 5e-3);
  // Fewer: the widest of the repetitions' intervals, and none where one has no interval.
  passes.figures.resize(2);
  EXPECT_DOUBLE_EQ(passes.interval()->first, 8e-3 * 0.5);
  EXPECT_DOUBLE_EQ(passes.interval()->second, 9e-3 * 2.0);
  EXPECT_DOUBLE_EQ(passes.median_seconds(), 8.5e-3);
  passes.figures[1].ci_low.reset();
  EXPECT_FALSE(passes.interval().has_value());
}

TEST(HeadlineRows, AResultsFileIsReadAsTheReportReadsIt) {
  const auto entry = [](const std::string& name, double real_time) {
    return nlohmann::json{{"name", name + "/manual_time"},
                          {"run_name", name + "/manual_time"},
                          {"run_type", "iteration"},
                          {"real_time", real_time},
                          {"time_unit", "us"},
                          {"ci_low", real_time * 1e-6},
                          {"ci_high", real_time * 1e-6},
                          {"wrong", 0}};
  };
  auto wrong = entry("p/wrong", 1.0);
  wrong["wrong"] = 3;
  auto damaged = entry("p/damaged", 1.0);
  damaged["ci_low"] = nullptr;
  auto errored = entry("p/errored", 1.0);
  errored["error_occurred"] = true;
  auto median = entry("p/aggregated", 4.0);
  median["run_type"] = "aggregate";
  median["aggregate_name"] = "median";
  const nlohmann::json results = {
      {"benchmarks",
       {entry("p/good", 2.0), entry("p/good", 3.0), wrong, damaged, errored, median}}};
  const auto rows = headline_rows_from(results);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].name.key, "p/good");
  EXPECT_FALSE(rows[0].failed);
  EXPECT_DOUBLE_EQ(rows[0].median_seconds(), 2.5e-6);
  EXPECT_TRUE(rows[1].failed);
  EXPECT_TRUE(rows[2].failed);
  EXPECT_TRUE(rows[2].figures.empty());
  EXPECT_TRUE(rows[3].failed);
  EXPECT_EQ(rows[4].name.key, "p/aggregated");
  EXPECT_DOUBLE_EQ(rows[4].median_seconds(), 4e-6);
  EXPECT_THROW(headline_rows_from(nlohmann::json::object()), std::invalid_argument);
}

}  // namespace
}  // namespace handoff::bench

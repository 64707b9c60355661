// The per-family progress lines and the plan they come from: which registered rows a Google
// Benchmark filter selects.

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "harness/progress.hpp"

namespace handoff::bench {
namespace {

const std::vector<registered_row> registered_rows{
    {"ceilings/pipe/bytes:1", "ceilings/pipe"},
    {"elementwise/cpu_serial/elements:1", "elementwise/cpu"},
    {"elementwise/cpu_serial/elements:2", "elementwise/cpu"},
    {"tensor_transfer/pipe/bytes:4", "tensor_transfer/host"}};

std::vector<std::string> names(const std::vector<registered_row>& selected) {
  std::vector<std::string> result;
  for (const auto& row : selected)
    result.push_back(row.name);
  return result;
}

TEST(Progress, AFilterSelectsAsGoogleBenchmarkDoes) {
  EXPECT_EQ(rows_selected_by("", registered_rows).size(), 4u);
  EXPECT_EQ(names(rows_selected_by("^elementwise/", registered_rows)),
            (std::vector<std::string>{"elementwise/cpu_serial/elements:1",
                                      "elementwise/cpu_serial/elements:2"}));
  EXPECT_EQ(names(rows_selected_by("-^(ceilings|elementwise)/", registered_rows)),
            (std::vector<std::string>{"tensor_transfer/pipe/bytes:4"}));
  // Google Benchmark matches the name with its /manual_time suffix.
  EXPECT_EQ(rows_selected_by("elements:2/manual_time$", registered_rows).size(), 1u);
}

TEST(Progress, OneLinePerFamilyWithRowsDoneAndAnEstimate) {
  std::ostringstream out;
  progress_lines progress(out, registered_rows);
  for (const auto& row : registered_rows)
    progress.row_finished(row.name);
  progress.finished();
  const std::string text = out.str();
  EXPECT_NE(text.find("family 1 of 3: ceilings/pipe (1 rows); 0 of 4 rows done"), std::string::npos)
      << text;
  EXPECT_NE(text.find("family 2 of 3: elementwise/cpu (2 rows); 1 of 4 rows done"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("family 3 of 3: tensor_transfer/host (1 rows); 3 of 4 rows done"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("left"), std::string::npos) << text;
  EXPECT_NE(text.find("4 of 4 rows done in"), std::string::npos) << text;
}

TEST(Progress, RowsAddedLaterAreTheCeilingsAndLeaveTheTotalsAsTheyWere) {
  std::ostringstream out;
  progress_lines progress(out, {registered_rows[1]});
  progress.row_finished(registered_rows[1].name);
  progress.insert(1, {registered_rows[0]});
  progress.row_finished(registered_rows[0].name);
  progress.finished();
  const std::string text = out.str();
  EXPECT_NE(text.find("family 1 of 1: elementwise/cpu (1 rows); 0 of 1 rows done"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("the ceilings these rows need: ceilings/pipe (1 rows); 1 of 1 rows done"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("of 2"), std::string::npos) << text;
  EXPECT_NE(text.find("1 of 1 rows done in 0:00, and 1 rows of the ceilings they need"),
            std::string::npos)
      << text;
}

TEST(Progress, RowsInsertedInEachPassKeepTheCountInOrder) {
  // Two passes of rows[1] and rows[3], each followed by the ceiling rows[0] it needs.
  std::ostringstream out;
  progress_lines progress(
      out, {registered_rows[1], registered_rows[3], registered_rows[1], registered_rows[3]});
  progress.row_finished(registered_rows[1].name);
  progress.row_finished(registered_rows[3].name);
  progress.insert(2, {registered_rows[0]});
  progress.insert(5, {registered_rows[0]});
  progress.row_finished(registered_rows[0].name);
  progress.row_finished(registered_rows[1].name);
  EXPECT_NE(out.str().find("family 4 of 4: tensor_transfer/host (1 rows); 3 of 4 rows done"),
            std::string::npos)
      << out.str();
  progress.row_finished(registered_rows[3].name);
  EXPECT_NE(out.str().find("the ceilings these rows need: ceilings/pipe (1 rows); 4 of 4 rows"),
            std::string::npos)
      << out.str();
  progress.row_finished(registered_rows[0].name);
  progress.finished();
  EXPECT_NE(out.str().find("4 of 4 rows done in 0:00, and 2 rows of the ceilings they need"),
            std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace handoff::bench

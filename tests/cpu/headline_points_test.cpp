// The headline's table of points is the reports' file, built in: the build holds the file as it
// stands, and both languages read it alike. Names are read into pattern, variant and axes as the
// reports read them.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "harness/headline_points.hpp"
#include "harness/name_parts.hpp"
#include "support/source_files.hpp"

namespace handoff::bench {
namespace {

const std::string points_file =
    test_support::source_file("reports/handoff_reports/data/headline_points.json");

using test_support::file_text;

const headline_point& point_of(const std::string& pattern) {
  for (const auto& point : headline_points())
    if (point.pattern == pattern) return point;
  throw std::out_of_range("no headline point for " + pattern);
}

TEST(HeadlinePoints, AreTheReportsFileAsItStands) {
  const auto built_in = headline_points();
  const auto on_disk = parse_headline_points(file_text(points_file));
  ASSERT_EQ(built_in.size(), on_disk.size()) << "rebuild: the file changed since the build";
  for (std::size_t i = 0; i < built_in.size(); ++i) {
    EXPECT_EQ(built_in[i].pattern, on_disk[i].pattern);
    EXPECT_EQ(built_in[i].point, on_disk[i].point) << built_in[i].pattern;
    EXPECT_EQ(built_in[i].recipe, on_disk[i].recipe) << built_in[i].pattern;
    EXPECT_EQ(built_in[i].cpu_axes, on_disk[i].cpu_axes) << built_in[i].pattern;
    EXPECT_EQ(built_in[i].not_compared, on_disk[i].not_compared) << built_in[i].pattern;
  }
}

TEST(HeadlinePoints, KeepTheFilesOrderOfAxes) {
  const auto pool_prep = point_of("pool_prep");
  const axis_values expected = {
      {"chunks", "10"}, {"elements", "1048576"}, {"workers", "4"}, {"start", "warm"}};
  EXPECT_EQ(pool_prep.point, expected);
  EXPECT_EQ(pool_prep.recipe, "seed");
  EXPECT_TRUE(pool_prep.cpu_axes.empty());
}

TEST(HeadlinePoints, CarryCpuAxesNoRecipeLargestAndNotCompared) {
  EXPECT_EQ(point_of("queued_worker").cpu_axes, (axis_values{{"compute", "host"}}));
  EXPECT_EQ(point_of("elementwise").recipe, std::nullopt);
  const auto multi_gpu = point_of("multi_gpu");
  EXPECT_EQ(multi_gpu.point[1], (std::pair<std::string, std::string>("gpus", "{largest}")));
  EXPECT_EQ(multi_gpu.not_compared, (std::vector<std::string>{"kernel_only", "kernel_only_threads",
                                                              "kernel_only_host_join"}));
}

TEST(HeadlinePoints, AnotherLayoutIsRefused) {
  EXPECT_THROW(parse_headline_points("not json"), std::invalid_argument);
  EXPECT_THROW(parse_headline_points(R"({"largest": "{largest}", "points": []})"),
               std::invalid_argument);
  EXPECT_THROW(parse_headline_points(R"({"points": [{"pattern": "p", "point": {}}]})"),
               std::invalid_argument);
  const std::string largest = R"({"largest": "{largest}", "points": [)";
  EXPECT_THROW(parse_headline_points(largest + R"({"pattern": "p", "point": {"a": 1}}]})"),
               std::invalid_argument);
  EXPECT_THROW(parse_headline_points(largest + R"({"pattern": "p", "point": {}, "x": 1}]})"),
               std::invalid_argument);
  EXPECT_THROW(parse_headline_points(largest + R"({"pattern": "p", "point": {}, "recipe": 2}]})"),
               std::invalid_argument);
  EXPECT_NO_THROW(parse_headline_points(largest + R"({"pattern": "p", "point": {}}]})"));
}

TEST(NameParts, SplitsPatternVariantAndAxes) {
  const auto name = parse_name_parts(
      "queued_worker/streamed/compute:host/items:10/elements:1048576/start:warm/manual_time");
  EXPECT_EQ(name.key, "queued_worker/streamed/compute:host/items:10/elements:1048576/start:warm");
  EXPECT_EQ(name.pattern, "queued_worker");
  EXPECT_EQ(name.variant, "streamed");
  ASSERT_EQ(name.axes.size(), 4u);
  EXPECT_EQ(name.axes[0], (std::pair<std::string, std::string>("compute", "host")));
  EXPECT_EQ(name.axis("items"), "10");
  EXPECT_EQ(name.axis("workers"), std::nullopt);
}

TEST(NameParts, ReadsNamesWithoutVariantOrSuffixAsTheReportsDo) {
  const auto name = parse_name_parts("iterative/unknowns:1024/real_time/manual_time");
  EXPECT_EQ(name.key, "iterative/unknowns:1024");
  EXPECT_EQ(name.variant, "");
  EXPECT_EQ(name.axis("unknowns"), "1024");
  const auto bare = parse_name_parts("elementwise/gpu_resident/warm");
  EXPECT_EQ(bare.axis("warm"), "");
  EXPECT_EQ(parse_name_parts("a/b/n:1/n:2").axis("n"), "2");
  EXPECT_EQ(parse_name_parts("").pattern, "");
}

}  // namespace
}  // namespace handoff::bench

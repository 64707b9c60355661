// batched, streams and graph, resident and from the host, on uneven datasets with empty ones among
// them, run several times over poisoned outputs.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "handoff/patterns/independent_tasks/device_variants.hpp"
#include "support/gpu_requirement.hpp"
#include "task_support.hpp"

namespace handoff::patterns::independent_tasks {
namespace {

using testing_support::make_batch;
using testing_support::uneven_sizes;

template <class Variant>
void check_runs(Variant& variant, const std::vector<double>& expected, const std::string& what) {
  for (int round = 0; round < 3; ++round) {
    variant.poison_output();
    const auto poisoned = variant.result();
    if (!expected.empty()) {
      EXPECT_FALSE(reference::verify_reductions(expected, poisoned).passed())
          << what << ": a poisoned result passed";
    }
    variant.enqueue();
    const auto sums = variant.result();
    const auto verdict = reference::verify_reductions(expected, sums);
    EXPECT_TRUE(verdict.passed()) << what << " round " << round << ": " << verdict.describe();
    EXPECT_EQ(verdict.checked, expected.size()) << what;
  }
}

template <class Variant, class... Extra>
void check_variant(const std::string& name, Extra... extra) {
  for (const auto where : {data_location::resident, data_location::host}) {
    const std::string what = name + "/" + std::string(data_location_name(where));
    {
      const auto made = make_batch(uneven_sizes);
      Variant variant(made.batch, where, extra...);
      check_runs(variant, made.expected, what);
    }
    {
      const auto made = make_batch(std::vector<std::size_t>(100, 10'000), 5);
      Variant variant(made.batch, where, extra...);
      check_runs(variant, made.expected, what + " 100x10k");
    }
    {
      const auto made = make_batch({});
      Variant variant(made.batch, where, extra...);
      check_runs(variant, made.expected, what + " no datasets");
    }
  }
}

TEST(DeviceVariants, BatchedVerifies) {
  HANDOFF_REQUIRE_GPUS(1);
  check_variant<batched_reduction>("batched");
}

TEST(DeviceVariants, StreamsVerify) {
  HANDOFF_REQUIRE_GPUS(1);
  check_variant<streamed_reductions>("streams");
  check_variant<streamed_reductions>("one stream", 1u);
  check_variant<streamed_reductions>("more streams than datasets", 16u);
}

TEST(DeviceVariants, GraphVerifies) {
  HANDOFF_REQUIRE_GPUS(1);
  check_variant<graph_reductions>("graph");
  const auto made = make_batch(std::vector<std::size_t>(300, 100));
  graph_reductions variant(made.batch, data_location::host);
  EXPECT_EQ(variant.branches(), max_graph_branches);
  check_runs(variant, made.expected, "graph with more datasets than branches");
}

TEST(DeviceVariants, ZeroStreamsIsATypedError) {
  HANDOFF_REQUIRE_GPUS(1);
  const auto made = make_batch({10, 20});
  EXPECT_THROW(streamed_reductions(made.batch, data_location::resident, 0), std::invalid_argument);
}

}  // namespace
}  // namespace handoff::patterns::independent_tasks

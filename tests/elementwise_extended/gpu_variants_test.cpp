// The GPU variants of seed 002's workloads against the references: elementwise results exact, the
// affine result within the GEMM tolerance, at small and uneven sizes, each run twice on one
// variant with the output poisoned before each run.

#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "handoff/patterns/elementwise/extended_gpu_variants.hpp"
#include "support/gpu_requirement.hpp"
#include "workload_inputs.hpp"

namespace handoff::patterns::elementwise {
namespace {

using testing::workload_case;
using testing::workload_inputs;

template <class Variant>
void expect_matches_reference(const workload_case& test_case) {
  const workload_inputs inputs(test_case);
  Variant variant(inputs.problem());
  for (int run = 0; run < 2; ++run) {
    variant.poison_output();
    variant.enqueue();
    const auto result = inputs.verify(variant.result());
    EXPECT_TRUE(result.passed()) << describe(test_case) << " run " << run << ": "
                                 << result.describe();
    const auto stages = variant.last_stages();
    EXPECT_GE(stages.kernel, 0.0);
    EXPECT_GE(stages.h2d, 0.0);
    EXPECT_GE(stages.d2h, 0.0);
  }
}

std::vector<workload_case> gpu_cases() {
  std::vector<workload_case> cases;
  for (const auto workload : {extended_workload::square, extended_workload::neg_b_over_a}) {
    for (const std::size_t count : {0u, 1u, 3u, 1023u, 1025u, 1027u, (1u << 20) + 3u})
      cases.push_back({workload, count});
  }
  for (const std::size_t n : {1u, 3u, 37u, 64u, 130u, 257u})
    cases.push_back({extended_workload::affine, n});
  return cases;
}

class GpuExtendedVariants : public ::testing::TestWithParam<workload_case> {};

TEST_P(GpuExtendedVariants, TransfersMatchTheReference) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_matches_reference<elementwise_gpu_transfers>(GetParam());
}

TEST_P(GpuExtendedVariants, ResidentMatchesTheReference) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_matches_reference<elementwise_gpu_resident>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(EdgeSizes, GpuExtendedVariants, ::testing::ValuesIn(gpu_cases()),
                         [](const ::testing::TestParamInfo<workload_case>& param_info) {
                           std::string name = describe(param_info.param);
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(GpuExtendedResident, StagesReportOnlyTheKernel) {
  HANDOFF_REQUIRE_GPUS(1);
  const workload_inputs inputs({extended_workload::affine, 64});
  elementwise_gpu_resident variant(inputs.problem());
  variant.enqueue();
  const auto stages = variant.last_stages();
  EXPECT_GT(stages.kernel, 0.0);
  EXPECT_EQ(stages.h2d, 0.0);
  EXPECT_EQ(stages.d2h, 0.0);
}

}  // namespace
}  // namespace handoff::patterns::elementwise

#include <gtest/gtest.h>

#include "support/gpu_requirement.hpp"

namespace handoff::test_support {
namespace {

using action = gpu_requirement_verdict::action;

TEST(GpuRequirement, RunsWhenEnoughGpus) {
  EXPECT_EQ(judge_gpu_requirement(1, 1, "", 0).what, action::run);
  EXPECT_EQ(judge_gpu_requirement(2, 4, "", 4).what, action::run);
}

TEST(GpuRequirement, SkipsWithTheReasonWhenNotRequired) {
  const auto verdict = judge_gpu_requirement(1, 0, "cudaErrorNoDevice", 0);
  EXPECT_EQ(verdict.what, action::skip);
  EXPECT_NE(verdict.reason.find("cudaErrorNoDevice"), std::string::npos) << verdict.reason;
}

TEST(GpuRequirement, RequiredGpuTurnsSkipIntoFailure) {
  const auto verdict = judge_gpu_requirement(1, 0, "no driver", 1);
  EXPECT_EQ(verdict.what, action::fail);
  EXPECT_NE(verdict.reason.find("HANDOFF_REQUIRE_GPU=1"), std::string::npos) << verdict.reason;
}

TEST(GpuRequirement, OneRequiredGpuStillLetsMultiGpuTestsSkip) {
  EXPECT_EQ(judge_gpu_requirement(2, 1, "", 1).what, action::skip);
  EXPECT_EQ(judge_gpu_requirement(2, 1, "", 2).what, action::fail);
}

TEST(GpuRequirement, EnvironmentValueIsACountOrAnError) {
  EXPECT_EQ(required_gpus_from(nullptr), 0);
  EXPECT_EQ(required_gpus_from(""), 0);
  EXPECT_EQ(required_gpus_from("2"), 2);
  EXPECT_THROW(required_gpus_from("yes"), std::invalid_argument);
  EXPECT_THROW(required_gpus_from("-1"), std::invalid_argument);
  EXPECT_THROW(required_gpus_from("1 "), std::invalid_argument);
}

}  // namespace
}  // namespace handoff::test_support

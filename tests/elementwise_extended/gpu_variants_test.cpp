// The GPU variants' own stage reports (their results at edge sizes are conformance_gpu_test.cpp's).

#include <gtest/gtest.h>

#include "handoff/patterns/elementwise/extended_gpu_variants.hpp"
#include "support/gpu_requirement.hpp"
#include "workload_inputs.hpp"

namespace handoff::patterns::elementwise {
namespace {

using test_support::workload_inputs;

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

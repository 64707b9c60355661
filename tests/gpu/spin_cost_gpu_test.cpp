// The fixed cost of a planted kernel spin: measured, and short against a spin it does not pay.

#include "harness/spin_cost.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "support/gpu_requirement.hpp"

namespace handoff::bench {
namespace {

TEST(SpinCost, AnEmptySpinIsMeasuredOncePerProcess) {
  HANDOFF_REQUIRE_GPUS(1);
  const double first = spin_fixed_seconds();
  EXPECT_TRUE(std::isfinite(first));
  EXPECT_GT(first, 0.0);
  EXPECT_EQ(spin_fixed_seconds(), first);
}

}  // namespace
}  // namespace handoff::bench

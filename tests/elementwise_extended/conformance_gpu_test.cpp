// Seed 002's device rows against the conformance checks (conformance.hpp), at sizes around the
// kernels' float4 bulk and scalar tail and affine orders that no tile divides.

#include "conformance.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::patterns::elementwise::testing_support {
namespace {

class ExtendedDeviceRows : public ::testing::TestWithParam<std::string> {};

TEST_P(ExtendedDeviceRows, RunsAndVerifiesAtEverySize) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_row_conforms(
      GetParam(), compute_target::device,
      points_of({0, 1, 3, 1023, 1025, 1027, (1u << 20) + 3u}, {1, 3, 37, 64, 130, 257}));
}

INSTANTIATE_TEST_SUITE_P(Table, ExtendedDeviceRows,
                         ::testing::ValuesIn(handoff::test_support::rows_running_on(
                             extended_variants(), compute_target::device)));

}  // namespace
}  // namespace handoff::patterns::elementwise::testing_support

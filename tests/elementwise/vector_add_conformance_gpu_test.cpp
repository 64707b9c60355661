// The vector add's device rows against its conformance checks (vector_add_conformance.hpp).

#include "support/gpu_requirement.hpp"
#include "vector_add_conformance.hpp"

namespace handoff::patterns::elementwise::testing_support {
namespace {

class VectorAddDeviceRows : public ::testing::TestWithParam<std::string> {};

TEST_P(VectorAddDeviceRows, RunsAndVerifiesAtEverySize) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_row_conforms(GetParam(), compute_target::device);
}

TEST_P(VectorAddDeviceRows, RefusesAnOutputItNeverWrote) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_unrun_output_refused(GetParam(), compute_target::device);
}

HANDOFF_INSTANTIATE_ROWS(VectorAddDeviceRows,
                         handoff::test_support::rows_running_on(vector_add_variants(),
                                                                compute_target::device));

}  // namespace
}  // namespace handoff::patterns::elementwise::testing_support

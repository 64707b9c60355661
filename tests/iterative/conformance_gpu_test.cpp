// The iterative pattern's device rows against its conformance checks (conformance.hpp).

#include "conformance.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::patterns::iterative::testing_support {
namespace {

class IterativeDeviceRows : public ::testing::TestWithParam<std::string> {};

TEST_P(IterativeDeviceRows, RunsAndVerifiesAtEverySize) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_row_conforms(GetParam(), compute_target::device);
}

TEST_P(IterativeDeviceRows, RefusesAnEmptySystem) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_empty_system_refused(GetParam(), compute_target::device);
}

HANDOFF_INSTANTIATE_ROWS(IterativeDeviceRows,
                         handoff::test_support::rows_running_on(iterative_variants(),
                                                                compute_target::device));

}  // namespace
}  // namespace handoff::patterns::iterative::testing_support

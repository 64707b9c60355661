// The iterative pattern's CPU rows against its conformance checks (conformance.hpp).

#include "conformance.hpp"

namespace handoff::patterns::iterative::testing_support {
namespace {

class IterativeCpuRows : public ::testing::TestWithParam<std::string> {};

TEST_P(IterativeCpuRows, RunsAndVerifiesAtEverySize) {
  expect_row_conforms(GetParam(), compute_target::host_stand_in);
}

TEST_P(IterativeCpuRows, RefusesAnEmptySystem) {
  expect_empty_system_refused(GetParam(), compute_target::host_stand_in);
}

HANDOFF_INSTANTIATE_ROWS(IterativeCpuRows,
                         handoff::test_support::rows_running_on(iterative_variants(),
                                                                compute_target::host_stand_in));

// A session that does not verify its own output falls back on the case's, which fails.
TEST(JacobiCase, WithoutASessionsOutputNothingVerifies) {
  EXPECT_FALSE(make_jacobi_case({})->verify().passed());
}

}  // namespace
}  // namespace handoff::patterns::iterative::testing_support

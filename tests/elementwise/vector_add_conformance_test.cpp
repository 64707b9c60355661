// The vector add's CPU rows against its conformance checks (vector_add_conformance.hpp).

#include "vector_add_conformance.hpp"

namespace handoff::patterns::elementwise::testing_support {
namespace {

class VectorAddCpuRows : public ::testing::TestWithParam<std::string> {};

TEST_P(VectorAddCpuRows, RunsAndVerifiesAtEverySize) {
  expect_row_conforms(GetParam(), compute_target::host_stand_in);
}

TEST_P(VectorAddCpuRows, RefusesAnOutputItNeverWrote) {
  expect_unrun_output_refused(GetParam(), compute_target::host_stand_in);
}

HANDOFF_INSTANTIATE_ROWS(VectorAddCpuRows,
                         handoff::test_support::rows_running_on(vector_add_variants(),
                                                                compute_target::host_stand_in));

// The outputs are the sessions' own: the case has nothing to check, so a session must say how its
// result is checked (one that does not is abstract and does not compile).
static_assert(!checks_its_outputs<vector_add_case>);

}  // namespace
}  // namespace handoff::patterns::elementwise::testing_support

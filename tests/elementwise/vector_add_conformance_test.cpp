// The vector add's CPU rows against its conformance checks (vector_add_conformance.hpp).

#include "vector_add_conformance.hpp"

#include <algorithm>

#include "handoff/reference/parallel_for.hpp"

namespace handoff::patterns::elementwise::testing_support {
namespace {

class VectorAddCpuRows : public ::testing::TestWithParam<std::string> {};

TEST_P(VectorAddCpuRows, RunsAndVerifiesAtEverySize) {
  expect_row_conforms(GetParam(), compute_target::host_stand_in);
}

TEST_P(VectorAddCpuRows, RefusesAnOutputItNeverWrote) {
  expect_unrun_output_refused(GetParam(), compute_target::host_stand_in);
}

// Threads start per run, a slice of at least one grain each: a small input uses one.
TEST(VectorAddCpuThreads, ReportsTheThreadsItActuallyUsed) {
  const auto threads_for = [](std::size_t count) {
    const vector_add_point at{count};
    const auto work = make_vector_add_case(at);
    auto session = vector_add_row("cpu_threads").setup(at, compute_target::host_stand_in);
    session->run(*work);
    const auto figures = session->figures();
    EXPECT_EQ(figures.size(), 1u);
    return figures.empty() ? 0.0 : figures.front().value;
  };
  EXPECT_EQ(threads_for(10), 1.0) << "10 elements are below one thread's grain";
  EXPECT_EQ(threads_for(8 * reference::parallel_grain),
            static_cast<double>(std::min(8u, reference::default_thread_count())));
}

HANDOFF_INSTANTIATE_ROWS(VectorAddCpuRows,
                         handoff::test_support::rows_running_on(vector_add_variants(),
                                                                compute_target::host_stand_in));

// The outputs are the sessions' own: the case has nothing to check, so a session must say how its
// result is checked (one that does not is abstract and does not compile).
static_assert(!checks_its_outputs<vector_add_case>);

}  // namespace
}  // namespace handoff::patterns::elementwise::testing_support

// pool_prep's conformance on the CPU, over its variant table: every row that runs without a GPU
// (the CPU references, and the others' host stand-ins: the same workers, rings, threads, ordering
// and failure handling, with the add on the CPU) runs and verifies at every conformance size; a
// row that starts processes fails its next batch naming a killed worker, leaving nothing behind.

#include <gtest/gtest.h>

#include <string>

#include "pool_prep/conformance_sizes.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::patterns::pool_prep {
namespace {

using testing_support::conformance_points;
constexpr auto target = compute_target::host_stand_in;

class PoolPrepConformance : public ::testing::TestWithParam<std::string> {
 protected:
  const row& variant() const { return find_row(pool_prep_variants(), GetParam()); }
};

TEST_P(PoolPrepConformance, RunsAndVerifiesAtEverySize) {
  for (const auto& [what, at] : conformance_points) {
    SCOPED_TRACE(what);
    handoff::testing::expect_runs_and_verifies(variant(), at, target, make_batch_case);
  }
}

TEST_P(PoolPrepConformance, AKilledWorkerIsATypedErrorNamingIt) {
  const point at{.chunks = 4, .elements = 1000, .workers = 2};
  if (variant().setup(at, target)->peers().empty()) GTEST_SKIP() << "it starts no process";
  handoff::testing::expect_killed_peer_is_typed_error(variant(), at, target, make_batch_case,
                                                      testing_support::shared_segment_fragment());
}

INSTANTIATE_TEST_SUITE_P(Rows, PoolPrepConformance,
                         ::testing::ValuesIn(handoff::testing::rows_running_on(
                             pool_prep_variants(), compute_target::host_stand_in)),
                         [](const auto& param_info) { return param_info.param; });

}  // namespace
}  // namespace handoff::patterns::pool_prep

// pool_prep's conformance on the CPU, over its variant table: every row that runs without a GPU
// (the CPU references, and the others' host stand-ins: the same workers, rings, threads, ordering
// and failure handling, with the add on the CPU) runs and verifies at every conformance size; a
// row that starts processes fails its next batch naming a killed worker, leaving nothing behind.

#include <gtest/gtest.h>

#include "pool_prep/conformance_sizes.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::patterns::pool_prep {
namespace {

using testing_support::conformance_points;
constexpr auto target = compute_target::host_stand_in;

class PoolPrepConformance : public handoff::test_support::row_test<pool_prep_variants> {};

TEST_P(PoolPrepConformance, RunsAndVerifiesAtEverySize) {
  handoff::test_support::expect_runs_and_verifies_at(row(), conformance_points, target,
                                                     make_batch_case);
}

TEST_P(PoolPrepConformance, AKilledWorkerIsATypedErrorNamingIt) {
  const point at{.chunks = 4, .elements = 1000, .workers = 2};
  if (row().setup(at, target)->peers().empty()) GTEST_SKIP() << "it starts no process";
  handoff::test_support::expect_killed_peer_is_typed_error(
      row(), at, target, make_batch_case, testing_support::shared_segment_fragment());
}

HANDOFF_INSTANTIATE_ROWS(PoolPrepConformance,
                         handoff::test_support::rows_running_on(pool_prep_variants(), target));

}  // namespace
}  // namespace handoff::patterns::pool_prep

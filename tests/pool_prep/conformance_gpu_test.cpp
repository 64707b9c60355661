// pool_prep's conformance on the device, over its variant table: every device row runs and
// verifies at every conformance size (odd lengths and offsets, so the kernel's scalar tail and
// unaligned copies run too) and reports its device stages; a row that starts processes fails its
// next batch naming a killed worker (one with a CUDA context, for seed), leaving nothing behind.

#include <gtest/gtest.h>

#include "pool_prep/conformance_sizes.hpp"
#include "support/gpu_requirement.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::patterns::pool_prep {
namespace {

using testing_support::conformance_points;
constexpr auto target = compute_target::device;

class PoolPrepDeviceConformance : public handoff::test_support::row_test<pool_prep_variants> {};

TEST_P(PoolPrepDeviceConformance, RunsAndVerifiesAtEverySize) {
  HANDOFF_REQUIRE_GPUS(1);
  handoff::test_support::expect_runs_and_verifies_at(row(), conformance_points, target,
                                                     make_batch_case);
  // A larger uneven batch: chunks of 14287 and 14286 elements.
  handoff::test_support::expect_runs_and_verifies(
      row(), {.chunks = 7, .elements = 14286, .workers = 3, .extra_elements = 1}, target,
      make_batch_case);
}

TEST_P(PoolPrepDeviceConformance, ReportsTheDeviceStages) {
  HANDOFF_REQUIRE_GPUS(1);
  const point at{.chunks = 4, .elements = 1 << 16, .workers = 2};
  const auto work = make_batch_case(at);
  const auto session = row().setup(at, target);
  session->poison(*work);
  const auto stages = session->run(*work).stages;
  EXPECT_GT(stages.prep, 0.0);
  EXPECT_GT(stages.h2d, 0.0);
  EXPECT_GT(stages.kernel, 0.0);
  EXPECT_GT(stages.d2h, 0.0);
  session->shutdown();
}

TEST_P(PoolPrepDeviceConformance, AKilledWorkerIsATypedErrorNamingIt) {
  HANDOFF_REQUIRE_GPUS(1);
  const point at{.chunks = 4, .elements = 1 << 14, .workers = 2};
  if (row().setup(at, target)->peers().empty()) GTEST_SKIP() << "it starts no process";
  handoff::test_support::expect_killed_peer_is_typed_error(
      row(), at, target, make_batch_case, testing_support::shared_segment_fragment());
}

HANDOFF_INSTANTIATE_ROWS(PoolPrepDeviceConformance,
                         handoff::test_support::rows_running_on(pool_prep_variants(), target));

}  // namespace
}  // namespace handoff::patterns::pool_prep

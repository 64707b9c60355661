// queued_worker's conformance on the device, over its variant table: every row's worker computes
// on the GPU and runs and verifies at every conformance point, warm and cold; a killed worker is a
// typed error naming it, leaving nothing behind.

#include <gtest/gtest.h>

#include "queued_worker/conformance_checks.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::patterns::queued_worker {
namespace {

using namespace testing_support;
constexpr auto target = compute_target::device;

class QueuedWorkerDeviceConformance
    : public handoff::test_support::row_test<queued_worker_variants> {};

TEST_P(QueuedWorkerDeviceConformance, RunsAndVerifiesAtEveryPoint) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_runs_and_verifies_everywhere(row(), target);
}

TEST_P(QueuedWorkerDeviceConformance, AColdRunJoinsItsWorker) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_cold_run_joins_its_worker(row(), target);
}

TEST_P(QueuedWorkerDeviceConformance, AKilledWorkerIsATypedErrorNamingIt) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_killed_worker_is_typed_error(row(), target);
}

HANDOFF_INSTANTIATE_ROWS(QueuedWorkerDeviceConformance,
                         handoff::test_support::rows_running_on(queued_worker_variants(), target));

}  // namespace
}  // namespace handoff::patterns::queued_worker

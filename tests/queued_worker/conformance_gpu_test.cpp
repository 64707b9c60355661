// queued_worker's conformance on the device, over its variant table: every row's worker computes
// on the GPU and runs and verifies at every conformance point, warm and cold; a killed worker is a
// typed error naming it, leaving nothing behind.

#include <gtest/gtest.h>

#include <string>

#include "queued_worker/conformance_checks.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::patterns::queued_worker {
namespace {

using namespace testing_support;
constexpr auto target = compute_target::device;

class QueuedWorkerDeviceConformance : public ::testing::TestWithParam<std::string> {
 protected:
  const row& variant() const { return find_row(queued_worker_variants(), GetParam()); }
};

TEST_P(QueuedWorkerDeviceConformance, RunsAndVerifiesAtEveryPoint) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_runs_and_verifies_everywhere(variant(), target);
}

TEST_P(QueuedWorkerDeviceConformance, AColdRunJoinsItsWorker) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_cold_run_joins_its_worker(variant(), target);
}

TEST_P(QueuedWorkerDeviceConformance, AKilledWorkerIsATypedErrorNamingIt) {
  HANDOFF_REQUIRE_GPUS(1);
  expect_killed_worker_is_typed_error(variant(), target);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, QueuedWorkerDeviceConformance,
    ::testing::ValuesIn(handoff::testing::rows_running_on(queued_worker_variants(), target)),
    [](const auto& param_info) { return param_info.param; });

}  // namespace
}  // namespace handoff::patterns::queued_worker

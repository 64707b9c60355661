// queued_worker's conformance on the CPU, over its variant table: every row's host stand-in (the
// same worker process, queues, rings, ordering and failure handling, with the add on the CPU)
// runs and verifies at every conformance point, warm and cold; a killed worker is a typed error
// naming it, leaving nothing behind.

#include <gtest/gtest.h>

#include "queued_worker/conformance_checks.hpp"

namespace handoff::patterns::queued_worker {
namespace {

using namespace testing_support;
constexpr auto target = compute_target::host_stand_in;

class QueuedWorkerConformance : public handoff::test_support::row_test<queued_worker_variants> {};

TEST_P(QueuedWorkerConformance, RunsAndVerifiesAtEveryPoint) {
  expect_runs_and_verifies_everywhere(row(), target);
}

TEST_P(QueuedWorkerConformance, AColdRunJoinsItsWorker) {
  expect_cold_run_joins_its_worker(row(), target);
}

TEST_P(QueuedWorkerConformance, AKilledWorkerIsATypedErrorNamingIt) {
  expect_killed_worker_is_typed_error(row(), target);
}

HANDOFF_INSTANTIATE_ROWS(QueuedWorkerConformance,
                         handoff::test_support::rows_running_on(queued_worker_variants(), target));

}  // namespace
}  // namespace handoff::patterns::queued_worker

// independent_tasks' table, row by row, with the host stand-in for the device (CI): every row runs
// and verifies twice at every conformance point (and with no datasets at all); a process row's
// killed worker is a typed error naming it, leaving no process and no shared memory held; a process
// row's cold run starts its pool anew and verifies.

#include <gtest/gtest.h>

#include "conformance_points.hpp"
#include "handoff/patterns/independent_tasks/task_worker.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::patterns::independent_tasks {
namespace {

HANDOFF_WORKER_ROLE(task_worker_role, run_task_worker);

constexpr auto host = compute_target::host_stand_in;

class HostConformance : public handoff::test_support::row_test<independent_tasks_variants> {};

TEST_P(HostConformance, RunsAndVerifiesAtEveryPoint) {
  auto points = conformance_points(data_location::resident);
  points.push_back({0, 10});
  handoff::test_support::expect_runs_and_verifies_at(row(), points, host, make_task_case, describe);
}

HANDOFF_INSTANTIATE_ROWS(HostConformance,
                         handoff::test_support::rows_running_on(independent_tasks_variants(),
                                                                host));

class HostProcessRows : public HostConformance {};

TEST_P(HostProcessRows, AKilledWorkerIsATypedErrorNamingIt) {
  handoff::test_support::expect_killed_peer_is_typed_error(row(), task_point{10, 1027}, host,
                                                           make_task_case, "task_worker");
}

// The cold figure's run: the running pool shut down, a new one started, one batch.
TEST_P(HostProcessRows, AColdRunStartsItsPoolAnewAndVerifies) {
  const task_point at{10, 1027};
  const auto work = make_task_case(at);
  auto pooled = row().setup(at, host);
  pooled->run(*work);
  const auto first_pool = pooled->peers();
  pooled->poison(*work);
  const auto cold = pooled->run_cold(*work);
  EXPECT_GT(cold.seconds, 0.0);
  EXPECT_TRUE(pooled->verify(*work).passed());
  EXPECT_NE(pooled->peers(), first_pool);
  pooled->shutdown();
  for (const pid_t peer : first_pool)
    EXPECT_FALSE(handoff::leak_checks::process_exists(peer)) << peer;
}

HANDOFF_INSTANTIATE_ROWS(HostProcessRows, process_rows(host));

}  // namespace
}  // namespace handoff::patterns::independent_tasks

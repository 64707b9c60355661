// independent_tasks' table, row by row, on the device: every row runs and verifies twice at every
// conformance point, the in-process rows with their datasets resident and copied from the host; a
// process row's killed worker is a typed error naming it, leaving no process and no shared memory
// held.

#include <gtest/gtest.h>

#include <vector>

#include "conformance_points.hpp"
#include "handoff/patterns/independent_tasks/task_worker.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "support/gpu_requirement.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::patterns::independent_tasks {
namespace {

HANDOFF_WORKER_ROLE(task_worker_role, run_task_worker);

constexpr auto device = compute_target::device;

class DeviceConformance : public handoff::test_support::row_test<independent_tasks_variants> {};

TEST_P(DeviceConformance, RunsAndVerifiesAtEveryPoint) {
  HANDOFF_REQUIRE_GPUS(1);
  // Only the in-process rows read task_point::where; the process rows run once per point.
  std::vector<data_location> wheres{data_location::resident};
  if (row().cold == cold_kind::none) wheres.push_back(data_location::host);
  for (const auto where : wheres) {
    handoff::test_support::expect_runs_and_verifies_at(row(), conformance_points(where), device,
                                                       make_task_case, describe);
  }
}

HANDOFF_INSTANTIATE_ROWS(DeviceConformance,
                         handoff::test_support::rows_running_on(independent_tasks_variants(),
                                                                device));

class DeviceProcessRows : public DeviceConformance {};

TEST_P(DeviceProcessRows, AKilledWorkerIsATypedErrorNamingIt) {
  HANDOFF_REQUIRE_GPUS(1);
  handoff::test_support::expect_killed_peer_is_typed_error(row(), task_point{10, 1027}, device,
                                                           make_task_case, "task_worker");
}

HANDOFF_INSTANTIATE_ROWS(DeviceProcessRows, process_rows(device));

}  // namespace
}  // namespace handoff::patterns::independent_tasks

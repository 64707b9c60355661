// postproc_split's table, row by row, on the device: every row runs and verifies twice at every
// conformance point, c computed by the vector add kernel; a process row's killed worker is a
// typed error naming it, leaving no process and no shared memory held.

#include <gtest/gtest.h>

#include "conformance_points.hpp"
#include "handoff/patterns/postproc_split/summing_worker.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "support/gpu_requirement.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::patterns::postproc_split {
namespace {

HANDOFF_WORKER_ROLE(summing_worker_role, run_summing_worker);

constexpr auto device = compute_target::device;

class DeviceConformance : public handoff::test_support::row_test<postproc_split_variants> {};

TEST_P(DeviceConformance, RunsAndVerifiesAtEveryPoint) {
  HANDOFF_REQUIRE_GPUS(1);
  handoff::test_support::expect_runs_and_verifies_at(row(), conformance_points(device), device,
                                                     make_split_case, describe);
}

HANDOFF_INSTANTIATE_ROWS(DeviceConformance,
                         handoff::test_support::rows_running_on(postproc_split_variants(), device));

class DeviceProcessRows : public DeviceConformance {};

TEST_P(DeviceProcessRows, AKilledWorkerIsATypedErrorNamingIt) {
  HANDOFF_REQUIRE_GPUS(1);
  handoff::test_support::expect_killed_peer_is_typed_error(
      row(), split_point{100'003, 7, 4, device}, device, make_split_case, "postproc_split");
}

HANDOFF_INSTANTIATE_ROWS(DeviceProcessRows, process_rows(device));

}  // namespace
}  // namespace handoff::patterns::postproc_split

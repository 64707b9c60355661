// Seed 002's CPU rows against the conformance checks (conformance.hpp). cpu_map's workers are this
// program started again in the map worker role.

#include "conformance.hpp"
#include "handoff/patterns/elementwise/map_pool.hpp"
#include "handoff/transport/process/worker_role.hpp"

namespace handoff::patterns::elementwise::testing_support {
namespace {

HANDOFF_WORKER_ROLE(map_worker_role, run_map_worker);

class ExtendedCpuRows : public ::testing::TestWithParam<std::string> {};

TEST_P(ExtendedCpuRows, RunsAndVerifiesAtEverySize) {
  // 2 elements and n = 2: fewer items than a pool has workers.
  expect_row_conforms(GetParam(), compute_target::host_stand_in,
                      points_of({0, 1, 2, 1027}, {1, 2, 37}));
}

TEST_P(ExtendedCpuRows, AKilledPeerIsATypedErrorNamingIt) {
  const auto& row = find_row(extended_variants(), GetParam());
  extended_point at{.workload = extended_workload::square, .size = 1027};
  if (!is_measured_at(row, at)) at = {.workload = extended_workload::affine, .size = 37};
  if (row.setup(at, compute_target::host_stand_in)->peers().empty()) {
    GTEST_SKIP() << row.name << " starts no process";
  }
  handoff::test_support::expect_killed_peer_is_typed_error(row, at, compute_target::host_stand_in,
                                                           make_extended_case, "map");
}

INSTANTIATE_TEST_SUITE_P(Table, ExtendedCpuRows,
                         ::testing::ValuesIn(handoff::test_support::rows_running_on(
                             extended_variants(), compute_target::host_stand_in)));

}  // namespace
}  // namespace handoff::patterns::elementwise::testing_support

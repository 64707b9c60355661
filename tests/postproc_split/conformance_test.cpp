// postproc_split's table, row by row, with the host stand-in for the device (CI): every row runs
// and verifies twice at every conformance point; a process row's killed worker is a typed error
// naming it, leaving no process and no shared memory held.

#include <gtest/gtest.h>

#include "conformance_points.hpp"
#include "handoff/patterns/postproc_split/summing_worker.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::patterns::postproc_split {
namespace {

HANDOFF_WORKER_ROLE(summing_worker_role, run_summing_worker);

constexpr auto host = compute_target::host_stand_in;

class HostConformance : public handoff::test_support::row_test<postproc_split_variants> {};

TEST_P(HostConformance, RunsAndVerifiesAtEveryPoint) {
  handoff::test_support::expect_runs_and_verifies_at(row(), conformance_points(host), host,
                                                     make_split_case, describe);
}

HANDOFF_INSTANTIATE_ROWS(HostConformance,
                         handoff::test_support::rows_running_on(postproc_split_variants(), host));

class HostProcessRows : public HostConformance {};

TEST_P(HostProcessRows, AKilledWorkerIsATypedErrorNamingIt) {
  handoff::test_support::expect_killed_peer_is_typed_error(row(), split_point{100'003, 7, 4, host},
                                                           host, make_split_case, "postproc_split");
}

HANDOFF_INSTANTIATE_ROWS(HostProcessRows, process_rows(host));

}  // namespace
}  // namespace handoff::patterns::postproc_split

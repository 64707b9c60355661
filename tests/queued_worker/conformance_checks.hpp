#pragma once
// queued_worker's conformance over its variant table, on one compute target: every row runs and
// verifies at every conformance point, warm and cold; a killed worker fails the next batch with
// a typed error naming it, leaving no process and no shared memory held.

#include <gtest/gtest.h>

#include <string>

#include "queued_worker/conformance_points.hpp"
#include "support/leak_checks.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::patterns::queued_worker::testing_support {

inline void expect_runs_and_verifies_everywhere(const row& variant, compute_target target) {
  handoff::test_support::expect_runs_and_verifies_at(variant, conformance_points, target,
                                                     make_batch);
}

// A cold session's one run is the batch, the stop sentinel and the join: its worker is gone after
// it, without a shutdown.
inline void expect_cold_run_joins_its_worker(const row& variant, compute_target target) {
  auto work = make_batch(cold_point);
  auto session = variant.setup(cold_point, target);
  session->poison(*work);
  session->run(*work);
  const auto verdict = session->verify(*work);
  EXPECT_TRUE(verdict.passed()) << variant.name << ": " << verdict.describe();
  for (const pid_t peer : session->peers())
    EXPECT_FALSE(leak_checks::process_exists(peer)) << variant.name << ": worker " << peer;
  session->shutdown();  // nothing left to stop: it must not throw
}

inline void expect_killed_worker_is_typed_error(const row& variant, compute_target target) {
  handoff::test_support::expect_killed_peer_is_typed_error(
      variant, point{.items = 4, .elements = 1027}, target, make_batch,
      segment_fragment(variant.name));
}

}  // namespace handoff::patterns::queued_worker::testing_support

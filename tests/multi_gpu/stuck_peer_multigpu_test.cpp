// Every multi_gpu variant, with its last GPU stuck behind a spinning kernel: its run gives up
// within the wait limit naming the variant and a GPU, rather than hang (the stall once seen in
// the device discipline test), and runs and verifies again once the peer is released.

#include <gtest/gtest.h>

#include <string>

#include "handoff/bounded_wait.hpp"
#include "handoff/device_discovery.hpp"
#include "handoff/patterns/multi_gpu/partitioned_setup.hpp"
#include "handoff/patterns/multi_gpu/variants.hpp"
#include "stuck_peer.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::multi_gpu_tests {
namespace {

using namespace patterns::multi_gpu;

TEST(MultiGpuStuckPeer, EveryVariantGivesUpOnAStuckPeerAndRecovers) {
  HANDOFF_REQUIRE_GPUS(2);
  const short_wait_limit limit;
  const int gpus = gpu_count().count;
  const multi_gpu_point at{{"scale_by_two", gpus, partitioner::even, 4099, 256},
                           run_scope::from_host};
  for (const auto& row : multi_gpu_variants()) {
    if (!multi_gpu_unavailable_reason(row.name, gpus).empty()) continue;
    auto work = make_multi_gpu_case(at);
    auto session = row.setup(at, patterns::compute_target::device);
    auto& last = work->shared_setup()->devices->slots().back();
    {
      stuck_peer peer(last.ordinal, last.stream.get());
      try {
        (void)session->run(*work);
        ADD_FAILURE() << row.name << ": a run with GPU " << last.ordinal << " stuck returned";
      } catch (const gpu_stalled& stalled) {
        EXPECT_EQ(stalled.variant(), row.name);
        EXPECT_GE(stalled.device(), 0) << row.name;
      }
    }
    session->poison(*work);
    (void)session->run(*work);
    EXPECT_TRUE(session->verify(*work).passed()) << row.name;
  }
}

}  // namespace
}  // namespace handoff::multi_gpu_tests

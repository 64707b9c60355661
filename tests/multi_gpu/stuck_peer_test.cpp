// A run waiting on a stuck GPU gives up within the wait limit with an error naming the variant,
// the stage and the GPU, and once the peer is released the same session runs and verifies again:
// no multi-GPU wait can hang a run (bounded_wait.hpp).

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "handoff/bounded_wait.hpp"
#include "handoff/patterns/multi_gpu/variants.hpp"
#include "stuck_peer.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::multi_gpu_tests {
namespace {

using namespace patterns::multi_gpu;

TEST(MultiGpuStuckPeer, ARunOnAStuckGpuIsAStallNamingItAndTheSessionRecovers) {
  HANDOFF_REQUIRE_GPUS(1);
  const short_wait_limit limit;
  const multi_gpu_point at{{"scale_by_two", 1, partitioner::even, 4099, 256}, run_scope::resident};
  const auto& row = find_row(multi_gpu_variants(), "kernel_only");
  auto work = make_multi_gpu_case(at);
  auto session = row.setup(at, patterns::compute_target::device);
  {
    stuck_peer peer(0, session->stream());
    const auto started = std::chrono::steady_clock::now();
    try {
      (void)session->run(*work);
      FAIL() << "a run behind a stuck kernel returned";
    } catch (const gpu_stalled& stalled) {
      EXPECT_EQ(stalled.variant(), "kernel_only");
      EXPECT_EQ(stalled.stage(), "run");
      EXPECT_EQ(stalled.device(), 0);
    }
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30));
  }
  session->poison(*work);
  (void)session->run(*work);
  EXPECT_TRUE(session->verify(*work).passed());
}

}  // namespace
}  // namespace handoff::multi_gpu_tests

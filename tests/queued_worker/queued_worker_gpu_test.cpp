// queued_worker on the device, beyond the conformance over the table (conformance_gpu_test.cpp):
// items of mixed sizes batch after batch, and the full-sized default batch, warm and cold.

#include <gtest/gtest.h>

#include "handoff/patterns/queued_worker/gpu_worker_role.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "queued_worker_test_support.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::patterns::queued_worker {
namespace {

using namespace testing_support;

HANDOFF_WORKER_ROLE(gpu_worker_role, run_gpu_worker);

class QueuedWorkerDevice : public ::testing::TestWithParam<std::string> {
 protected:
  void TearDown() override {
    EXPECT_TRUE(segments_of_this_process().empty())
        << "segments still held: " << ::testing::PrintToString(segments_of_this_process());
  }
  worker_setup setup(std::size_t max_elements) const {
    return setup_for(GetParam(), compute_target::device, max_elements, "gpu-" + GetParam());
  }
};

std::string variant_label(const ::testing::TestParamInfo<std::string>& info) {
  return info.param;
}

INSTANTIATE_TEST_SUITE_P(Variants, QueuedWorkerDevice, ::testing::ValuesIn(variant_names()),
                         variant_label);

TEST_P(QueuedWorkerDevice, SmallAndUnevenItemsComeBackExactBatchAfterBatch) {
  HANDOFF_REQUIRE_GPUS(1);
  worker_session session(setup(4099));
  for (std::uint64_t round = 0; round < 2; ++round) {
    test_batch batch({1027, 1, 4099, 0, 3, 2053, 1027, 17, 4099, 999}, 0x200 + round);
    const auto result = session.run_batch(batch.items(), batch.outputs());
    const auto verdict = batch.verify();
    EXPECT_EQ(verdict.checked, 1027U + 1 + 4099 + 3 + 2053 + 1027 + 17 + 4099 + 999);
    EXPECT_TRUE(verdict.passed()) << "round " << round << ": " << verdict.describe();
    EXPECT_GT(result.stages.h2d, 0.0) << "the worker did not report its copies";
  }
}

TEST_P(QueuedWorkerDevice, TheDefaultBatchComesBackExactWarmAndCold) {
  HANDOFF_REQUIRE_GPUS(1);
  constexpr std::size_t million = std::size_t{1} << 20;
  test_batch batch(std::vector<std::size_t>(10, million));
  {
    worker_session session(setup(million));
    session.run_batch(batch.items(), batch.outputs());
    EXPECT_TRUE(batch.verify().passed()) << batch.verify().describe();
  }
  batch.poison();
  run_once(setup(million), batch.items(), batch.outputs());
  EXPECT_TRUE(batch.verify().passed()) << batch.verify().describe();
}

}  // namespace
}  // namespace handoff::patterns::queued_worker

// Conformance of every tensor_transfer variant in the table, on this program's target (host rows
// in the CI program, device rows in the GPU one): the tensor arrives complete, in order and bit for
// bit at tiny, uneven, multi-slot and default sizes, warm (the channel kept open) and cold (the
// channel reopened to a receiver that stays up); the check can fail; a killed receiver is a typed
// error naming it; no segment is left held and nothing running.

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "conformance_target.hpp"
#include "handoff/patterns/tensor_transfer/tensor_receiver.hpp"
#include "handoff/patterns/tensor_transfer/transfer_protocol.hpp"
#include "handoff/patterns/tensor_transfer/variants.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "support/gpu_requirement.hpp"
#include "support/leak_checks.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::patterns {
namespace {

HANDOFF_WORKER_ROLE(tensor_receiver_role, run_tensor_receiver);

// What every segment of the pattern is named with (tensor-queue, tensor-shm, tensor-pinned).
constexpr const char* segment_fragment = "handoff-tensor";

constexpr std::size_t kibibyte = 1024;
constexpr std::size_t mebibyte = kibibyte * kibibyte;
// One float; a page; sizes that fill no 1 MiB piece or 4 and 8 MiB slot evenly, one of them
// spanning several slots; the default 1000 x 1000 fp32 tensor.
constexpr std::size_t sizes[] = {4, 4 * kibibyte, 3 * mebibyte + 4, 9 * mebibyte + 12, 4'000'000};

std::set<std::string> tensor_segments() {
  return leak_checks::held_segments_containing(segment_fragment);
}

class TransferConformance : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (conformance_target == compute_target::device) HANDOFF_REQUIRE_GPUS(1);
    segments_before_ = tensor_segments();
  }
  void TearDown() override {
    EXPECT_EQ(tensor_segments(), segments_before_) << GetParam() << " left shared memory behind";
  }
  const transfer_row& row() const { return find_row(tensor_transfer_variants(), GetParam()); }

 private:
  std::set<std::string> segments_before_;
};

TEST_P(TransferConformance, WarmRunsArriveBitForBitAtEverySize) {
  for (const std::size_t bytes : sizes) {
    SCOPED_TRACE(std::to_string(bytes) + " bytes");
    test_support::expect_runs_and_verifies(row(), transfer_point{bytes}, conformance_target,
                                           make_transfer_case);
  }
}

TEST_P(TransferConformance, AnEmptyTensorArrives) {
  if (!row().targets.host_stand_in) {
    GTEST_SKIP() << GetParam() << " shares a device allocation, which cannot be empty";
  }
  test_support::expect_runs_and_verifies(row(), transfer_point{0}, conformance_target,
                                         make_transfer_case);
}

// The cold figure reopens the channel inside the timing, to the same receiver; warm and cold runs
// mix on one session, as the benchmarks run them, and every run times itself.
TEST_P(TransferConformance, ColdRunsReopenTheChannelAndArriveBitForBit) {
  for (const std::size_t bytes : {std::size_t{4}, 3 * mebibyte + 4}) {
    SCOPED_TRACE(std::to_string(bytes) + " bytes");
    const transfer_point at{bytes};
    auto work = make_transfer_case(at);
    auto session = row().setup(at, conformance_target);
    const pid_t receiver = session->peers().at(0);
    for (const bool cold : {true, false, true, true}) {
      session->poison(*work);
      const auto result = cold ? session->run_cold(*work) : session->run(*work);
      EXPECT_GT(result.seconds, 0.0) << (cold ? "cold" : "warm");
      const auto verdict = session->verify(*work);
      EXPECT_EQ(verdict.checked, bytes);
      EXPECT_TRUE(verdict.passed()) << (cold ? "cold: " : "warm: ") << verdict.describe();
      EXPECT_EQ(session->peers().at(0), receiver) << "a cold run restarted the receiver";
    }
    session->shutdown();
    EXPECT_FALSE(leak_checks::process_exists(receiver));
  }
}

// The tensor lands in process B: the case alone has nothing to check, so every session says how.
static_assert(!checks_its_outputs<transfer_case>);

TEST_P(TransferConformance, VerificationFailsWithoutTheRightData) {
  const transfer_point at{4 * kibibyte};
  auto work = make_transfer_case(at);
  auto session = row().setup(at, conformance_target);
  session->poison(*work);
  // The receiver holds only poison; a few seeded bytes happen to equal the poison byte.
  EXPECT_GT(session->verify(*work).mismatches, 4000U);
  session->run(*work);
  EXPECT_TRUE(session->verify(*work).passed());
  // Another seed's pattern differs almost everywhere.
  transfer_case other_seed{.bytes = at.bytes, .seed = transfer_seed + 1};
  EXPECT_GT(session->verify(other_seed).mismatches, 2048U);
  session->shutdown();
}

TEST_P(TransferConformance, AKilledReceiverIsATypedErrorNamingIt) {
  test_support::expect_killed_peer_is_typed_error(row(), transfer_point{64 * kibibyte},
                                                  conformance_target, make_transfer_case,
                                                  segment_fragment);
}

INSTANTIATE_TEST_SUITE_P(tensor_transfer, TransferConformance,
                         ::testing::ValuesIn(test_support::rows_running_on(
                             tensor_transfer_variants(), conformance_target)),
                         [](const auto& row_name) { return row_name.param; });

}  // namespace
}  // namespace handoff::patterns

// The host-only form of the article's three variants (queue, pipe, shm): the same processes,
// channels, framing and verification as the device form, with a CPU tensor at each end, so CI runs
// the whole orchestration without a GPU.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include "handoff/patterns/process/worker_role.hpp"
#include "handoff/patterns/tensor_transfer/tensor_receiver.hpp"
#include "handoff/patterns/tensor_transfer/tensor_sender.hpp"
#include "support/leak_checks.hpp"

namespace handoff::patterns {
namespace {

using namespace std::chrono_literals;

HANDOFF_WORKER_ROLE(tensor_receiver_role, run_tensor_receiver);

constexpr std::array host_variants{transfer_variant::queue, transfer_variant::pipe,
                                   transfer_variant::shm};

std::set<std::string> tensor_segments() {
  return handoff::leak_checks::shm_segments_containing("handoff-tensor");
}

using handoff::leak_checks::process_runs;

class HostTensorTransfer : public testing::TestWithParam<transfer_variant> {};

TEST_P(HostTensorTransfer, WarmAndColdTransfersArriveBitForBit) {
  const auto before = tensor_segments();
  // Sizes that fill no slot evenly and one that spans several slots.
  for (const std::size_t bytes :
       {std::size_t{4096}, std::size_t{(3 << 20) + 4}, std::size_t{9 << 20}}) {
    tensor_sender sender({.variant = GetParam(), .bytes = bytes, .on_device = false});
    for (int round = 0; round < 3; ++round) {
      const auto result = sender.transfer_warm();
      EXPECT_GT(result.seconds, 0.0);
      const auto verdict = sender.verify();
      EXPECT_EQ(verdict.checked, bytes) << bytes;
      EXPECT_TRUE(verdict.passed()) << verdict.describe();
    }
    for (int round = 0; round < 2; ++round) {
      sender.transfer_cold();
      const auto verdict = sender.verify();
      EXPECT_EQ(verdict.checked, bytes);
      EXPECT_TRUE(verdict.passed()) << verdict.describe();
    }
    sender.shutdown();
  }
  EXPECT_EQ(tensor_segments(), before);
}

TEST_P(HostTensorTransfer, VerificationFailsWithoutTheRightData) {
  tensor_sender sender({.variant = GetParam(), .bytes = 4096, .on_device = false, .seed = 11});
  // Before any transfer the receiver holds only poison.
  const auto untouched = sender.verify();
  // A few seeded bytes happen to equal the poison byte.
  EXPECT_GT(untouched.mismatches, 4000U) << untouched.describe();
  sender.transfer_warm();
  EXPECT_TRUE(sender.verify().passed());
  // Another seed's pattern differs almost everywhere.
  EXPECT_GT(sender.verify_against_seed(12).mismatches, 2048U);
}

TEST_P(HostTensorTransfer, AConsumerKilledMidTransferFailsTheProducerWithinItsDeadline) {
  const auto before = tensor_segments();
  constexpr auto patience = 5s;
  std::chrono::steady_clock::time_point killed_at;
  {
    tensor_sender sender({.variant = GetParam(),
                          .bytes = std::size_t{64} << 20,
                          .on_device = false,
                          .patience = patience});
    sender.transfer_warm();
    const pid_t receiver = sender.receiver_pid();
    std::thread killer([&] {
      std::this_thread::sleep_for(5ms);
      killed_at = std::chrono::steady_clock::now();
      ::kill(receiver, SIGKILL);
    });
    bool failed = false;
    std::string message;
    for (int attempt = 0; attempt < 1000 && !failed; ++attempt) {
      try {
        sender.transfer_warm();
      } catch (const process_error& error) {
        failed = true;
        message = error.what();
      }
    }
    killer.join();
    ASSERT_TRUE(failed) << "no transfer failed after the receiver was killed";
    EXPECT_LT(std::chrono::steady_clock::now() - killed_at, patience);
    EXPECT_NE(message.find("tensor_receiver-0"), std::string::npos) << message;
    EXPECT_NE(message.find("signal 9"), std::string::npos) << message;
  }
  EXPECT_EQ(tensor_segments(), before);
}

INSTANTIATE_TEST_SUITE_P(Variants, HostTensorTransfer, testing::ValuesIn(host_variants),
                         [](const auto& variant) {
                           return std::string(variant_name(variant.param));
                         });

// Process A in a worker of its own, so that a test can kill the producer: it starts its receiver,
// reports the receiver's pid, and transfers until it is killed.
int transfer_coordinator(std::span<const std::string> arguments) {
  const auto variant =
      static_cast<transfer_variant>(std::stoul(arguments.empty() ? "2" : arguments[0]));
  auto channel = coordinator_connection();
  tensor_sender sender({.variant = variant, .bytes = std::size_t{64} << 20, .on_device = false});
  sender.transfer_warm();
  channel.send_record(static_cast<std::int64_t>(sender.receiver_pid()),
                      deadline_clock::now() + 10s);
  while (true)
    sender.transfer_warm();
}
HANDOFF_WORKER_ROLE("tensor_transfer_coordinator", transfer_coordinator);

TEST_P(HostTensorTransfer, AProducerKilledMidTransferLeavesNoConsumerWaiting) {
  const auto before = tensor_segments();
  worker_pool coordinator("coordinator", 1,
                          {.role = "tensor_transfer_coordinator",
                           .arguments = {std::to_string(static_cast<std::uint32_t>(GetParam()))}});
  const auto receiver = static_cast<pid_t>(
      coordinator.channel(0).receive_record<std::int64_t>(deadline_clock::now() + 30s));
  ASSERT_TRUE(process_runs(receiver));
  std::this_thread::sleep_for(5ms);
  ASSERT_EQ(::kill(coordinator.worker_pid(0), SIGKILL), 0);
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (process_runs(receiver) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_FALSE(process_runs(receiver)) << "the receiver outlived its killed producer";
  EXPECT_EQ(tensor_segments(), before);
}

TEST(TensorTransfer, ADeviceOnlyVariantHasNoHostForm) {
  for (const auto variant :
       {transfer_variant::shm_pinned, transfer_variant::cuda_ipc, transfer_variant::vmm_fd}) {
    EXPECT_FALSE(runs_host_only(variant));
    tensor_sender sender({.variant = variant, .bytes = 4096, .on_device = false});
    try {
      sender.transfer_warm();
      ADD_FAILURE() << variant_name(variant) << " ran on host memory";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("device tensors only"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace handoff::patterns

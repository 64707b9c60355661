// The tensor_transfer table and the host-only form of the article's three variants (queue, pipe,
// shm) under failures the conformance tests (tests/tensor_transfer) do not cover: a receiver killed
// in the middle of a transfer, a producer killed in the middle of one, device-only variants asked
// to run on host memory, and process B finding a variant's receiving side by its name.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include "handoff/patterns/tensor_transfer/tensor_receiver.hpp"
#include "handoff/patterns/tensor_transfer/transfer_protocol.hpp"
#include "handoff/patterns/tensor_transfer/variants.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "handoff/wall_clock.hpp"
#include "support/leak_checks.hpp"

namespace handoff::patterns {
namespace {

using namespace std::chrono_literals;

HANDOFF_WORKER_ROLE(tensor_receiver_role, run_tensor_receiver);

constexpr std::size_t big_tensor_bytes = std::size_t{64} << 20;

std::set<std::string> tensor_segments() {
  return handoff::leak_checks::held_segments_containing("handoff-tensor");
}

using handoff::leak_checks::process_runs;

std::unique_ptr<session<transfer_case>> start_host_session(const std::string& variant,
                                                           std::size_t bytes) {
  return find_row(tensor_transfer_variants(), variant)
      .setup(transfer_point{bytes}, compute_target::host_stand_in);
}

class HostTensorTransfer : public testing::TestWithParam<std::string> {};

TEST_P(HostTensorTransfer, AConsumerKilledMidTransferFailsTheProducerPromptly) {
  const auto before = tensor_segments();
  wall_clock::time_point killed_at;
  {
    auto work = make_transfer_case(transfer_point{big_tensor_bytes});
    auto session = start_host_session(GetParam(), big_tensor_bytes);
    session->run(*work);
    const pid_t receiver = session->peers().at(0);
    std::thread killer([&] {
      std::this_thread::sleep_for(5ms);
      killed_at = wall_clock::now();
      ::kill(receiver, SIGKILL);
    });
    bool failed = false;
    std::string message;
    for (int attempt = 0; attempt < 1000 && !failed; ++attempt) {
      try {
        session->poison(*work);
        session->run(*work);
      } catch (const transport::process_error& error) {
        failed = true;
        message = error.what();
      }
    }
    killer.join();
    ASSERT_TRUE(failed) << "no transfer failed after the receiver was killed";
    // The sessions' deadlines are a minute: the death is noticed, not waited out.
    EXPECT_LT(seconds_since(killed_at), 5.0);
    EXPECT_NE(message.find("tensor_receiver-0"), std::string::npos) << message;
    EXPECT_NE(message.find("signal 9"), std::string::npos) << message;
  }
  EXPECT_EQ(tensor_segments(), before);
}

// Process A in a worker of its own, so that a test can kill the producer: it starts its receiver,
// reports the receiver's pid, and transfers until it is killed.
int transfer_coordinator(std::span<const std::string> arguments) {
  auto channel = transport::coordinator_connection();
  auto work = make_transfer_case(transfer_point{big_tensor_bytes});
  auto session = start_host_session(arguments.empty() ? "pipe" : arguments[0], big_tensor_bytes);
  session->run(*work);
  channel.send_record(static_cast<std::int64_t>(session->peers().at(0)),
                      transport::deadline_clock::now() + 10s);
  while (true) {
    session->poison(*work);
    session->run(*work);
  }
}
HANDOFF_WORKER_ROLE("tensor_transfer_coordinator", transfer_coordinator);

TEST_P(HostTensorTransfer, AProducerKilledMidTransferLeavesNoConsumerWaiting) {
  const auto before = tensor_segments();
  transport::worker_pool coordinator(
      "coordinator", 1, {.role = "tensor_transfer_coordinator", .arguments = {GetParam()}});
  // The coordinator starts a receiver and makes one 64 MiB transfer first, which TSan slows many
  // times over, a loaded machine more. The deadline only turns a hang into a failure.
  const auto receiver = static_cast<pid_t>(
      coordinator.channel(0).receive_record<std::int64_t>(transport::deadline_clock::now() + 120s));
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

INSTANTIATE_TEST_SUITE_P(tensor_transfer, HostTensorTransfer,
                         testing::Values("queue", "pipe", "shm"),
                         [](const auto& row_name) { return row_name.param; });

TEST(TensorTransferTable, ADeviceOnlyVariantHasNoHostForm) {
  for (const auto& row : tensor_transfer_variants()) {
    if (row.targets.host_stand_in) continue;
    EXPECT_TRUE(row.targets.device) << row.name;
    try {
      row.setup(transfer_point{4096}, compute_target::host_stand_in);
      ADD_FAILURE() << row.name << " set up on host memory";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("device tensors only"), std::string::npos)
          << error.what();
    }
  }
}

// Process B opens a variant's receiving side by the name the open_session command carries.
TEST(TensorTransferTable, EveryRowIsFoundByTheNameItsOpenCommandCarries) {
  std::set<std::string_view> names;
  for (const auto& row : tensor_transfer_variants()) {
    command_record announce{.command = receiver_command::open_session};
    announce.set_variant(row.name);
    const auto& variant = find_transfer_variant(announce.variant_name());
    EXPECT_EQ(variant.name, row.name);
    EXPECT_NE(variant.specifics.make_sender, nullptr) << row.name;
    EXPECT_NE(variant.specifics.open_receiver, nullptr) << row.name;
    EXPECT_TRUE(names.insert(row.name).second) << row.name << " appears twice";
  }
  EXPECT_EQ(names.size(), 6u);
  EXPECT_THROW(find_transfer_variant("carrier_pigeon"), std::invalid_argument);
}

}  // namespace
}  // namespace handoff::patterns

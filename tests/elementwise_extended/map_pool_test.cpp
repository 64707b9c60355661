// cpu_map's process conformance: a worker killed mid-batch fails the batch within its deadline with
// an error naming the worker, nothing is left running, and a worker given malformed messages
// refuses them by exiting rather than trusting them.

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "handoff/patterns/elementwise/map_pool.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "support/leak_checks.hpp"
#include "workload_inputs.hpp"

namespace handoff::patterns::elementwise {

using transport::worker_uncaught_exit_code;

namespace {

using namespace std::chrono_literals;
using test_support::workload_inputs;

using handoff::leak_checks::process_exists;

TEST(CpuMapFailure, AWorkerKilledMidBatchIsNamedWithinTheDeadline) {
  // 2^16 elements take far longer than the 20 ms before the kill, so the batch is under way.
  const workload_inputs inputs({extended_workload::square, std::size_t{1} << 16});
  std::vector<pid_t> pids;
  {
    map_pool pool(2, 5s);
    pids = {pool.worker_pid(0), pool.worker_pid(1)};
    std::vector<float> out(inputs.problem().output_count());
    std::jthread killer([&] {
      std::this_thread::sleep_for(20ms);
      ::kill(pool.worker_pid(1), SIGKILL);
    });
    const auto start = std::chrono::steady_clock::now();
    try {
      pool.run(inputs.problem(), out);
      FAIL() << "the batch finished although worker map-1 was killed";
    } catch (const transport::worker_died& error) {
      EXPECT_EQ(error.worker(), "map-1");
      EXPECT_NE(std::string(error.what()).find("map-1"), std::string::npos) << error.what();
      EXPECT_FALSE(error.status().exited);
      EXPECT_EQ(error.status().code, SIGKILL);
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  }
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_exists(pid)) << pid;
}

TEST(CpuMapFailure, AWorkerKilledBetweenBatchesFailsTheNextOne) {
  const workload_inputs inputs({extended_workload::affine, 16});
  map_pool pool(2, 5s);
  std::vector<float> out(inputs.problem().output_count());
  pool.run(inputs.problem(), out);
  ASSERT_EQ(::kill(pool.worker_pid(0), SIGKILL), 0);
  EXPECT_THROW(pool.run(inputs.problem(), out), transport::worker_died);
  // Replies of the failed batch may still be queued on the survivors' channels: the pool refuses
  // every later batch instead of reading them as the next batch's.
  EXPECT_THROW(pool.run(inputs.problem(), out), transport::pool_unusable);
}

TEST(CpuMapFailure, APoolThatWasShutDownRefusesABatch) {
  const workload_inputs inputs({extended_workload::square, 64});
  map_pool pool(2, 5s);
  std::vector<float> out(inputs.problem().output_count());
  pool.shutdown();
  EXPECT_THROW(pool.run(inputs.problem(), out), transport::pool_unusable);
}

TEST(CpuMapFailure, ShutdownLeavesNoProcess) {
  std::vector<pid_t> pids;
  {
    map_pool pool(3);
    for (std::size_t index = 0; index < pool.size(); ++index)
      pids.push_back(pool.worker_pid(index));
    pool.shutdown();
  }
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_exists(pid)) << pid;
}

// A worker's input crosses a process boundary: a malformed message ends it with the uncaught-
// exception exit code, never a crash or an allocation the message asks for.
transport::exit_status status_after_sending(std::span<const std::byte> message) {
  transport::worker_pool pool("map", 1, {.role = map_worker_role});
  pool.channel(0).send(message, transport::deadline_clock::now() + 10s);
  const auto statuses = pool.shutdown(10s);
  return statuses.at(0);
}

struct raw_header {  // the layout of map_protocol::header
  std::uint32_t what;
  std::uint32_t workload;
  std::uint64_t index;
  std::uint64_t values;
  double compute_seconds;
};

std::vector<std::byte> message_of(const raw_header& header, std::size_t extra_bytes = 0) {
  std::vector<std::byte> message(sizeof(header) + extra_bytes);
  std::memcpy(message.data(), &header, sizeof(header));
  return message;
}

TEST(CpuMapWorker, RefusesAMessageShorterThanItsHeader) {
  const std::vector<std::byte> runt(5);
  EXPECT_EQ(status_after_sending(runt).code, worker_uncaught_exit_code);
}

TEST(CpuMapWorker, RefusesAHeaderThatMisstatesItsValues) {
  const auto status = status_after_sending(message_of({0x4D410001, 0, 0, 1000, 0.0}, 4));
  EXPECT_TRUE(status.exited);
  EXPECT_EQ(status.code, worker_uncaught_exit_code);
}

TEST(CpuMapWorker, RefusesAnAffineOrderAboveItsCap) {
  const raw_header header{0x4D410001, 2, max_map_order + 1, 0, 0.0};
  EXPECT_EQ(status_after_sending(message_of(header)).code, worker_uncaught_exit_code);
}

TEST(CpuMapWorker, RefusesATaskBeforeTheBatchSetUp) {
  const raw_header header{0x4D410002, 0, 0, 1, 0.0};
  EXPECT_EQ(status_after_sending(message_of(header, sizeof(float))).code,
            worker_uncaught_exit_code);
}

TEST(CpuMapWorker, ExitsCleanlyWhenTheChannelCloses) {
  transport::worker_pool pool("map", 1, {.role = map_worker_role});
  const auto statuses = pool.shutdown(10s);
  EXPECT_TRUE(statuses.at(0).success()) << statuses.at(0).describe();
}

}  // namespace
}  // namespace handoff::patterns::elementwise

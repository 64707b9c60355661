#include "handoff/transport/process/worker_pool.hpp"
#include "support/leak_checks.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "handoff/transport/process/worker_role.hpp"

namespace handoff::patterns {

using transport::deadline_clock;
using transport::worker_died;
using transport::worker_pool;

namespace {

using namespace std::chrono_literals;

deadline_clock::time_point ten_seconds_from_now() {
  return deadline_clock::now() + 10s;
}

using handoff::leak_checks::process_exists;

// Replies to each request with its own index, until the channel closes.
int numbered_worker(std::span<const std::string> arguments) {
  const auto index = static_cast<std::uint32_t>(std::stoul(arguments.empty() ? "0" : arguments[0]));
  auto channel = transport::coordinator_connection();
  while (true) {
    try {
      channel.receive_record<std::uint32_t>(deadline_clock::now() + 60s);
    } catch (const transport::channel_closed&) {
      return 0;
    }
    channel.send_record(index, ten_seconds_from_now());
  }
}
HANDOFF_WORKER_ROLE("pool_numbered", numbered_worker);

int exit_with_code_worker(std::span<const std::string> arguments) {
  return std::stoi(arguments.empty() ? "1" : arguments[0]);
}
HANDOFF_WORKER_ROLE("pool_exit_with_code", exit_with_code_worker);

// Never answers: the coordinator's deadlines must cope.
int silent_worker(std::span<const std::string>) {
  std::this_thread::sleep_for(60s);
  return 0;
}
HANDOFF_WORKER_ROLE("pool_silent", silent_worker);

int throwing_worker(std::span<const std::string>) {
  throw std::runtime_error("planted failure");
}
HANDOFF_WORKER_ROLE("pool_throwing", throwing_worker);

TEST(WorkerPool, EveryWorkerAnswersOnItsOwnChannel) {
  worker_pool pool("numbered", 3, {.role = "pool_numbered", .arguments = {"5"}});
  ASSERT_EQ(pool.size(), 3U);
  for (std::size_t index = 0; index < pool.size(); ++index) {
    pool.channel(index).send_record(std::uint32_t{0}, ten_seconds_from_now());
    EXPECT_EQ(pool.channel(index).receive_record<std::uint32_t>(ten_seconds_from_now()), 5U);
  }
  EXPECT_EQ(pool.worker_name(2), "numbered-2");
  pool.shutdown_expecting_success(10s);
}

TEST(WorkerPool, WaitForMessageFindsTheWorkerThatReplied) {
  worker_pool pool("numbered", 3, {.role = "pool_numbered", .arguments = {"1"}});
  pool.channel(1).send_record(std::uint32_t{0}, ten_seconds_from_now());
  EXPECT_EQ(pool.wait_for_message(ten_seconds_from_now()), 1U);
  EXPECT_EQ(pool.channel(1).receive_record<std::uint32_t>(ten_seconds_from_now()), 1U);
}

TEST(WorkerPool, AKilledWorkerIsReportedByNameAndSignal) {
  worker_pool pool("victim", 2, {.role = "pool_numbered", .arguments = {"0"}});
  ASSERT_EQ(::kill(pool.worker_pid(1), SIGKILL), 0);
  const auto start = deadline_clock::now();
  try {
    pool.with_worker(1, [](transport::connection& channel) {
      channel.send_record(std::uint32_t{0}, ten_seconds_from_now());
      return channel.receive_record<std::uint32_t>(ten_seconds_from_now());
    });
    FAIL() << "no worker_died";
  } catch (const worker_died& error) {
    EXPECT_EQ(error.worker(), "victim-1");
    EXPECT_FALSE(error.status().exited);
    EXPECT_EQ(error.status().code, SIGKILL);
    EXPECT_NE(std::string(error.what()).find("victim-1"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("signal 9"), std::string::npos) << error.what();
  }
  EXPECT_LT(deadline_clock::now() - start, 5s);
}

TEST(WorkerPool, AWorkerThatExitedIsFoundWhileWaiting) {
  worker_pool pool("quitter", 1, {.role = "pool_exit_with_code", .arguments = {"3"}});
  try {
    pool.wait_for_message(ten_seconds_from_now());
    pool.with_worker(0, [](transport::connection& channel) {
      return channel.receive(ten_seconds_from_now(), 16);
    });
    FAIL() << "no worker_died";
  } catch (const worker_died& error) {
    EXPECT_TRUE(error.status().exited);
    EXPECT_EQ(error.status().code, 3);
    EXPECT_NE(std::string(error.what()).find("exited with code 3"), std::string::npos)
        << error.what();
  }
}

TEST(WorkerPool, AnExceptionInAWorkerBecomesItsExitCode) {
  worker_pool pool("thrower", 1, {.role = "pool_throwing"});
  const auto statuses = pool.shutdown(10s);
  ASSERT_EQ(statuses.size(), 1U);
  EXPECT_TRUE(statuses[0].exited);
  EXPECT_EQ(statuses[0].code, transport::worker_uncaught_exit_code);
}

TEST(WorkerPool, ASilentWorkerMeetsTheDeadline) {
  worker_pool pool("silent", 1, {.role = "pool_silent"});
  const auto start = deadline_clock::now();
  EXPECT_THROW(pool.wait_for_message(start + 300ms), transport::deadline_exceeded);
  EXPECT_LT(deadline_clock::now() - start, 3s);
}

TEST(WorkerPool, TheDeadlineNamesTheWorkerThatOwesAReply) {
  worker_pool pool("silent", 2, {.role = "pool_silent"});
  const std::size_t owing[] = {1};
  try {
    pool.wait_for_message(deadline_clock::now() + 200ms, owing);
    ADD_FAILURE() << "no deadline";
  } catch (const transport::deadline_exceeded& error) {
    const std::string expected = "pool silent: no reply before the deadline from " +
                                 pool.worker_name(1) + " (pid " +
                                 std::to_string(pool.worker_pid(1)) + ")";
    EXPECT_EQ(std::string(error.what()), expected);
  }
}

TEST(WorkerPool, ShutdownKillsStragglersAndLeavesNoProcess) {
  std::vector<pid_t> pids;
  {
    worker_pool pool("silent", 2, {.role = "pool_silent"});
    pids = {pool.worker_pid(0), pool.worker_pid(1)};
    const auto statuses = pool.shutdown(200ms);
    ASSERT_EQ(statuses.size(), 2U);
    EXPECT_FALSE(statuses[0].exited) << statuses[0].describe();
    EXPECT_THROW(pool.shutdown_expecting_success(10ms), worker_died);
  }
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_exists(pid)) << pid;
}

TEST(WorkerPool, DestructionLeavesNoProcessBehind) {
  std::vector<pid_t> pids;
  {
    worker_pool pool("numbered", 4, {.role = "pool_numbered", .arguments = {"0"}});
    for (std::size_t index = 0; index < pool.size(); ++index)
      pids.push_back(pool.worker_pid(index));
  }
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_exists(pid)) << pid;
}

TEST(WorkerPool, AnUnknownRoleFailsWithAClearExit) {
  worker_pool pool("lost", 1, {.role = "no_such_role"});
  const auto statuses = pool.shutdown(10s);
  EXPECT_TRUE(statuses[0].exited);
  EXPECT_EQ(statuses[0].code, 2);
}

}  // namespace
}  // namespace handoff::patterns

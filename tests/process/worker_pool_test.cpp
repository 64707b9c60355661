#include "handoff/transport/process/worker_pool.hpp"
#include "support/leak_checks.hpp"

#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include <chrono>
#include <string>
#include <thread>

#include "handoff/transport/process/worker_role.hpp"
#include "support/scoped_environment.hpp"

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

std::vector<int> cores_of(pid_t pid) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  EXPECT_EQ(sched_getaffinity(pid, sizeof(mask), &mask), 0) << pid;
  std::vector<int> cores;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &mask)) cores.push_back(cpu);
  return cores;
}

TEST(WorkerCores, TheHighestFreeCoresBelowTheLastAreTaken) {
  const std::vector<int> sixteen{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  EXPECT_EQ(transport::plan_worker_cores(sixteen, {}, 4), (std::vector<int>{14, 13, 12, 11}));
  const std::vector<int> held{14, 12};
  EXPECT_EQ(transport::plan_worker_cores(sixteen, held, 3), (std::vector<int>{13, 11, 10}));
}

TEST(WorkerCores, APoolThatDoesNotFitIsLeftToTheScheduler) {
  const std::vector<int> sixteen{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  EXPECT_TRUE(transport::plan_worker_cores(sixteen, {}, 15).empty());
  EXPECT_EQ(transport::plan_worker_cores(sixteen, {}, 14).size(), 14U);
  const std::vector<int> held{1, 2, 3};
  EXPECT_TRUE(transport::plan_worker_cores(sixteen, held, 12).empty());
  const std::vector<int> two{0, 1};
  EXPECT_TRUE(transport::plan_worker_cores(two, {}, 1).empty());
  EXPECT_TRUE(transport::plan_worker_cores(sixteen, {}, 0).empty());
}

// Whatever this machine has: where a pool is held, each worker runs on its core alone and no two
// pools share one; where it is not, each worker may run wherever this process may.
TEST(WorkerCores, EachWorkerRunsWhereThePoolSays) {
  const test::scoped_environment held("HANDOFF_WORKER_CORES", "held");
  const auto allowed = cores_of(0);
  worker_pool first("numbered", 2, {.role = "pool_numbered", .arguments = {"0"}});
  worker_pool second("numbered", 1, {.role = "pool_numbered", .arguments = {"0"}});
  for (const worker_pool* pool : {&first, &second}) {
    for (std::size_t index = 0; index < pool->size(); ++index) {
      const auto cores = cores_of(pool->worker_pid(index));
      if (pool->cores().empty()) {
        EXPECT_EQ(cores, allowed);
      } else {
        EXPECT_EQ(cores, std::vector<int>{pool->cores()[index]});
      }
    }
  }
  EXPECT_EQ(first.cores().empty(), allowed.size() < 2 + 2);
  for (const int core : first.cores()) {
    EXPECT_NE(core, allowed.front());
    EXPECT_NE(core, allowed.back());
    EXPECT_EQ(std::count(second.cores().begin(), second.cores().end(), core), 0) << core;
  }
}

TEST(WorkerCores, APoolGivesItsCoresBack) {
  const test::scoped_environment held("HANDOFF_WORKER_CORES", "held");
  std::vector<int> taken;
  {
    worker_pool pool("numbered", 2, {.role = "pool_numbered", .arguments = {"0"}});
    taken.assign(pool.cores().begin(), pool.cores().end());
  }
  if (taken.empty()) GTEST_SKIP() << "this machine has too few cores to hold a pool of two";
  worker_pool again("numbered", 2, {.role = "pool_numbered", .arguments = {"0"}});
  EXPECT_EQ(std::vector<int>(again.cores().begin(), again.cores().end()), taken);
}

TEST(WorkerCores, TheSchedulerPlacesWorkersUnlessHoldingIsAskedFor) {
  for (const char* setting : {"", "scheduler", "HELD"}) {
    const test::scoped_environment asked("HANDOFF_WORKER_CORES", setting);
    worker_pool pool("numbered", 1, {.role = "pool_numbered", .arguments = {"0"}});
    EXPECT_TRUE(pool.cores().empty()) << setting;
    EXPECT_EQ(cores_of(pool.worker_pid(0)), cores_of(0)) << setting;
  }
}

TEST(WorkerPool, AnUnknownRoleFailsWithAClearExit) {
  worker_pool pool("lost", 1, {.role = "no_such_role"});
  const auto statuses = pool.shutdown(10s);
  EXPECT_TRUE(statuses[0].exited);
  EXPECT_EQ(statuses[0].code, 2);
}

}  // namespace
}  // namespace handoff::patterns

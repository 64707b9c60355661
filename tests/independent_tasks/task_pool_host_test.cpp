// The seed and few_workers orchestration with the host stand-in for the device: the same spawned
// workers, channels, ordering, deadlines and failure handling the GPU runs use, so CI exercises
// them without a GPU.

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "handoff/patterns/independent_tasks/task_pool.hpp"
#include "handoff/patterns/independent_tasks/task_worker.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "handoff/wall_clock.hpp"
#include "task_support.hpp"

namespace handoff::patterns::independent_tasks {
namespace {

using namespace std::chrono_literals;
using testing_support::handoff_segments;
using testing_support::make_batch;
using testing_support::process_runs;
using testing_support::uneven_sizes;

HANDOFF_WORKER_ROLE(task_worker_role, run_task_worker);

task_pool_options host_pool(std::size_t workers, std::string name = "task_worker") {
  return {.workers = workers,
          .target = compute_target::host_stand_in,
          .patience = 20s,
          .name = std::move(name)};
}

std::vector<pid_t> pids_of(const task_pool& pool) {
  std::vector<pid_t> pids;
  for (std::size_t index = 0; index < pool.size(); ++index)
    pids.push_back(pool.worker_pid(index));
  return pids;
}

void expect_batch_verifies(task_pool& pool, const std::vector<std::size_t>& sizes,
                           std::uint64_t seed = 17) {
  const auto made = make_batch(sizes, seed);
  const auto result = pool.map(made.batch.views());
  ASSERT_EQ(result.sums.size(), sizes.size());
  const auto verdict = reference::verify_reductions(made.expected, result.sums);
  EXPECT_TRUE(verdict.passed()) << verdict.describe();
  EXPECT_EQ(verdict.checked, sizes.size());
  EXPECT_LE(result.workers_used, pool.size());
}

TEST(TaskPoolHost, NoDatasetsGiveAnEmptyResult) {
  task_pool pool(host_pool(4));
  const auto result = pool.map({});
  EXPECT_TRUE(result.sums.empty());
  EXPECT_EQ(result.workers_used, 0u);
  pool.shutdown();
}

TEST(TaskPoolHost, FewerDatasetsThanWorkersUseOneWorkerEach) {
  task_pool pool(host_pool(12));
  const auto made = make_batch({100, 200, 300});
  const auto result = pool.map(made.batch.views());
  EXPECT_EQ(result.workers_used, 3u);
  EXPECT_TRUE(reference::verify_reductions(made.expected, result.sums).passed());
  pool.shutdown();
}

TEST(TaskPoolHost, UnevenSizesComeBackInDatasetOrderBatchAfterBatch) {
  task_pool pool(host_pool(3));
  // More datasets than workers, of sizes that differ, so they finish out of order.
  for (std::uint64_t round = 0; round < 3; ++round) {
    expect_batch_verifies(pool, uneven_sizes, 100 + round);
  }
  std::vector<std::size_t> many(37);
  for (std::size_t index = 0; index < many.size(); ++index)
    many[index] = (index * 7919) % 20'000;
  expect_batch_verifies(pool, many);
  pool.shutdown();
}

TEST(TaskPoolHost, EveryWorkerTakesTasksWhenThereAreMoreTasksThanWorkers) {
  task_pool pool(host_pool(8));
  const auto made = make_batch(std::vector<std::size_t>(64, 50'000));
  const auto result = pool.map(made.batch.views());
  EXPECT_TRUE(reference::verify_reductions(made.expected, result.sums).passed());
  EXPECT_GE(result.workers_used, 2u);
  EXPECT_GT(result.seconds, 0.0);
  EXPECT_GT(result.stages.serialize, 0.0);
  pool.shutdown();
}

// The seed's own shape: 100 datasets of 10k, a pool of 100 processes.
TEST(TaskPoolHost, TheSeedsHundredWorkersStartAndAnswerInOrder) {
  const auto start = wall_clock::now();
  std::vector<pid_t> pids;
  {
    task_pool pool(host_pool(100, "seed"));
    ASSERT_EQ(pool.size(), 100u);
    EXPECT_EQ(pool.worker_name(99), "seed-99");
    pids = pids_of(pool);
    const auto made = make_batch(std::vector<std::size_t>(100, 10'000));
    const auto result = pool.map(made.batch.views());
    EXPECT_EQ(result.workers_used, 100u);
    const auto verdict = reference::verify_reductions(made.expected, result.sums);
    EXPECT_TRUE(verdict.passed()) << verdict.describe();
    pool.shutdown();
  }
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_runs(pid)) << pid;
  EXPECT_LT(wall_clock::now() - start, 30s);
}

TEST(TaskPoolHost, ZeroWorkersIsATypedError) {
  EXPECT_THROW(task_pool(host_pool(0)), std::invalid_argument);
  auto impatient = host_pool(1);
  impatient.patience = 0ms;
  EXPECT_THROW(task_pool{impatient}, std::invalid_argument);
}

TEST(TaskPoolHost, FewWorkersMatchTheCoresAndTheDatasets) {
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_EQ(workers_for_cores(1000), cores);
  EXPECT_EQ(workers_for_cores(1), 1u);
  EXPECT_EQ(workers_for_cores(0), 1u);
}

TEST(TaskPoolHost, AWorkerKilledMidBatchIsNamedWithinTheDeadlineAndNothingIsLeft) {
  const auto segments_before = handoff_segments();
  constexpr auto patience = 5s;
  std::vector<pid_t> pids;
  {
    auto options = host_pool(4, "victim");
    options.patience = patience;
    options.task_delay = 200ms;  // every task is in flight long enough to be killed under
    task_pool pool(options);
    pids = pids_of(pool);
    const auto made = make_batch(std::vector<std::size_t>(16, 1000));
    wall_clock::time_point killed_at;
    std::thread killer([&] {
      std::this_thread::sleep_for(50ms);
      killed_at = wall_clock::now();
      ::kill(pids[2], SIGKILL);
    });
    try {
      pool.map(made.batch.views());
      killer.join();
      FAIL() << "the batch finished although a worker was killed";
    } catch (const transport::worker_died& error) {
      killer.join();
      EXPECT_LT(wall_clock::now() - killed_at, patience);
      EXPECT_EQ(error.worker(), "victim-2");
      EXPECT_NE(std::string(error.what()).find("victim-2"), std::string::npos) << error.what();
      EXPECT_NE(std::string(error.what()).find("signal 9"), std::string::npos) << error.what();
    }
    // A pool that lost a worker takes no more batches.
    EXPECT_THROW(pool.map(made.batch.views()), transport::process_error);
  }
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_runs(pid)) << pid;
  EXPECT_EQ(handoff_segments(), segments_before);
}

TEST(TaskPoolHost, ShutdownEndsEveryWorker) {
  std::vector<pid_t> pids;
  task_pool pool(host_pool(6));
  pids = pids_of(pool);
  expect_batch_verifies(pool, {5, 6, 7});
  pool.shutdown();
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_runs(pid)) << pid;
}

}  // namespace
}  // namespace handoff::patterns::independent_tasks

// The seed and few_workers pools on the device: every worker with its own CUDA context, datasets
// copied in from pageable memory and reduced with CUB.

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "handoff/patterns/independent_tasks/task_pool.hpp"
#include "handoff/patterns/independent_tasks/task_worker.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "support/gpu_requirement.hpp"
#include "task_support.hpp"

namespace handoff::patterns::independent_tasks {
namespace {

using namespace std::chrono_literals;
using testing_support::make_batch;
using testing_support::process_runs;
using testing_support::uneven_sizes;

HANDOFF_WORKER_ROLE(task_worker_role, run_task_worker);

task_pool_options device_pool(std::size_t workers, std::string name) {
  return {.workers = workers,
          .target = compute_target::device,
          .patience = 60s,
          .name = std::move(name)};
}

TEST(TaskPoolDevice, UnevenDatasetsVerifyOnTheDevice) {
  HANDOFF_REQUIRE_GPUS(1);
  task_pool pool(device_pool(4, "device"));
  for (std::uint64_t round = 0; round < 2; ++round) {
    const auto made = make_batch(uneven_sizes, 30 + round);
    const auto result = pool.map(made.batch.views());
    const auto verdict = reference::verify_reductions(made.expected, result.sums);
    EXPECT_TRUE(verdict.passed()) << verdict.describe();
    EXPECT_GT(result.stages.h2d, 0.0);
    EXPECT_GT(result.stages.kernel, 0.0);
  }
  EXPECT_GT(pool.start_seconds(), 0.0);
  pool.shutdown();
}

TEST(TaskPoolDevice, FewerDatasetsThanWorkersAndNone) {
  HANDOFF_REQUIRE_GPUS(1);
  task_pool pool(device_pool(6, "device"));
  EXPECT_TRUE(pool.map({}).sums.empty());
  const auto made = make_batch({10'000, 3});
  const auto result = pool.map(made.batch.views());
  EXPECT_EQ(result.workers_used, 2u);
  EXPECT_TRUE(reference::verify_reductions(made.expected, result.sums).passed());
  pool.shutdown();
}

TEST(TaskPoolDevice, AWorkerKilledMidBatchIsNamedAndNothingIsLeft) {
  HANDOFF_REQUIRE_GPUS(1);
  std::vector<pid_t> pids;
  {
    auto options = device_pool(3, "gpu_victim");
    options.patience = 10s;
    options.task_delay = 300ms;
    task_pool pool(options);
    for (std::size_t index = 0; index < pool.size(); ++index)
      pids.push_back(pool.worker_pid(index));
    const auto made = make_batch(std::vector<std::size_t>(9, 10'000));
    std::thread killer([&] {
      std::this_thread::sleep_for(100ms);
      ::kill(pids[1], SIGKILL);
    });
    try {
      pool.map(made.batch.views());
      killer.join();
      FAIL() << "the batch finished although a worker was killed";
    } catch (const transport::worker_died& error) {
      killer.join();
      EXPECT_EQ(error.worker(), "gpu_victim-1");
    }
  }
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_runs(pid)) << pid;
}

}  // namespace
}  // namespace handoff::patterns::independent_tasks

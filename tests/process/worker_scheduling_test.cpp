// HANDOFF_WORKER_SCHED chooses the kernel's policy for each worker (worker_scheduling.hpp).

#include "handoff/transport/process/worker_scheduling.hpp"

#include <gtest/gtest.h>
#include <sched.h>

#include <stdexcept>
#include <string>

#include "support/scoped_environment.hpp"

namespace handoff::transport {
namespace {

TEST(WorkerSchedulingSetting, BatchUnlessNormalIsAskedFor) {
  for (const char* setting : {static_cast<const char*>(nullptr), "", "batch"}) {
    const test::scoped_environment asked("HANDOFF_WORKER_SCHED", setting);
    EXPECT_EQ(worker_scheduling_from_environment(), worker_scheduling::batch);
  }
  const test::scoped_environment normal("HANDOFF_WORKER_SCHED", "normal");
  EXPECT_EQ(worker_scheduling_from_environment(), worker_scheduling::normal);
}

TEST(WorkerSchedulingSetting, EachPolicyIsNamedAsItIsAskedFor) {
  for (const auto policy : {worker_scheduling::batch, worker_scheduling::normal}) {
    const test::scoped_environment asked("HANDOFF_WORKER_SCHED", name_of(policy));
    EXPECT_EQ(worker_scheduling_from_environment(), policy) << name_of(policy);
  }
}

TEST(WorkerSchedulingSetting, AnythingElseIsRefusedByName) {
  const test::scoped_environment wrong("HANDOFF_WORKER_SCHED", "fifo");
  try {
    (void)worker_scheduling_from_environment();
    FAIL() << "HANDOFF_WORKER_SCHED=fifo was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()),
              "HANDOFF_WORKER_SCHED must be batch or normal, not 'fifo'");
  }
}

// Both ways round without a privilege: an unprivileged process may move between the two.
TEST(WorkerSchedulingSetting, AWorkerTakesThePolicyAndCanLeaveIt) {
  {
    const test::scoped_environment batch("HANDOFF_WORKER_SCHED", "batch");
    schedule_this_worker();
    EXPECT_EQ(scheduling_policy_of_this_thread(), SCHED_BATCH);
  }
  const test::scoped_environment normal("HANDOFF_WORKER_SCHED", "normal");
  schedule_this_worker();
  EXPECT_EQ(scheduling_policy_of_this_thread(), SCHED_OTHER);
}

}  // namespace
}  // namespace handoff::transport

// queued_worker's worker_session with the host stand-in for the device, beyond the conformance
// over the table (conformance_test.cpp): items of mixed sizes, a worker that stays the same across
// batches, results too large for a pipe, a worker killed in the middle of a batch, bad input and
// impossible setups. Also the recipe's two deadlocks, shown with deadlines, and handoff's fix for
// each.

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <future>
#include <thread>

#include "handoff/patterns/queued_worker/gpu_worker_role.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "handoff/wall_clock.hpp"
#include "queued_worker_test_support.hpp"

namespace handoff::patterns::queued_worker {
namespace {

using namespace std::chrono_literals;
using namespace testing_support;

HANDOFF_WORKER_ROLE(gpu_worker_role, run_gpu_worker);

constexpr std::size_t four_megabytes_of_floats = std::size_t{1} << 20;

// Every test must leave no segment of its own held, whatever happened to its worker.
class QueuedWorkerHost : public testing::TestWithParam<std::string> {
 protected:
  void TearDown() override {
    EXPECT_TRUE(segments_of_this_process().empty())
        << "segments still held: " << testing::PrintToString(segments_of_this_process());
  }
  worker_setup setup(std::size_t max_elements = 4099) const {
    return setup_for(GetParam(), compute_target::host_stand_in, max_elements, GetParam());
  }
};

std::string variant_label(const testing::TestParamInfo<std::string>& info) {
  return info.param;
}

INSTANTIATE_TEST_SUITE_P(Variants, QueuedWorkerHost, testing::ValuesIn(variant_names()),
                         variant_label);

// ---- ordered and complete ---------------------------------------------------------------------

// Sizes that share no divisor with the slots or the vector width, an empty item among them, and
// more items than either ring has slots, so the rings wrap.
TEST_P(QueuedWorkerHost, UnevenItemSizesComeBackOrderedAndComplete) {
  worker_session session(setup());
  test_batch batch({1027, 1, 4099, 0, 3, 2053, 1027, 17, 4099, 1, 999});
  const auto result = session.run_batch(batch.items(), batch.outputs());
  const auto verdict = batch.verify();
  EXPECT_EQ(verdict.checked, 1027U + 1 + 4099 + 3 + 2053 + 1027 + 17 + 4099 + 1 + 999);
  EXPECT_TRUE(verdict.passed()) << verdict.describe();
  EXPECT_GT(result.seconds, 0.0);
  EXPECT_GT(result.stages.kernel, 0.0) << "the worker's report did not arrive";
}

TEST_P(QueuedWorkerHost, AWarmWorkerRunsBatchAfterBatch) {
  worker_session session(setup());
  const pid_t worker = session.worker_pid();
  for (std::uint64_t round = 0; round < 3; ++round) {
    test_batch batch({4099, 1027, 64, 4096, 5}, 0x100 + round);
    session.run_batch(batch.items(), batch.outputs());
    EXPECT_TRUE(batch.verify().passed()) << "round " << round << ": " << batch.verify().describe();
  }
  EXPECT_EQ(session.worker_pid(), worker);
  session.shutdown();
  EXPECT_FALSE(process_exists(worker)) << "the worker outlived its shutdown";
}

TEST_P(QueuedWorkerHost, ResultsOfFourMegabytesEachDoNotDeadlock) {
  worker_session session(setup(four_megabytes_of_floats));
  test_batch batch(std::vector<std::size_t>(6, four_megabytes_of_floats));
  const auto start = wall_clock::now();
  session.run_last_batch(batch.items(), batch.outputs());
  // Finishing at all is the point; the bound only turns a hang into a failure, with room for TSan
  // on a loaded machine, which slows the seed many times over.
  EXPECT_LT(seconds_since(start), 60.0);
  EXPECT_TRUE(batch.verify().passed()) << batch.verify().describe();
}

// ---- a worker killed mid-batch ----------------------------------------------------------------

TEST_P(QueuedWorkerHost, AWorkerKilledMidBatchIsWorkerDiedNamingItWithinTheDeadline) {
  auto killed_setup = setup();
  killed_setup.pause_after_items = 2;
  pid_t worker = -1;
  const auto segments_before = segments_of_this_process();
  {
    worker_session session(killed_setup);
    worker = session.worker_pid();
    const std::string name = session.worker_name();
    test_batch batch(std::vector<std::size_t>(6, 4099));
    auto running =
        std::async(std::launch::async, [&] { session.run_batch(batch.items(), batch.outputs()); });
    ASSERT_EQ(running.wait_for(300ms), std::future_status::timeout)
        << "the batch finished although the worker paused after 2 of 6 items";
    ASSERT_EQ(::kill(worker, SIGKILL), 0);
    const auto killed_at = wall_clock::now();
    ASSERT_EQ(running.wait_for(5s), std::future_status::ready)
        << "the producer did not notice the death within 5 s";
    try {
      running.get();
      FAIL() << "a batch whose worker was killed completed";
    } catch (const transport::worker_died& error) {
      EXPECT_EQ(error.worker(), name);
      EXPECT_TRUE(contains(error.what(), name)) << error.what();
      EXPECT_FALSE(error.status().exited) << "it was killed by a signal";
      EXPECT_EQ(error.status().code, SIGKILL);
    }
    EXPECT_LT(seconds_since(killed_at), 5.0);
    EXPECT_THROW(session.run_batch(batch.items(), batch.outputs()), transport::process_error)
        << "a broken session must refuse further batches";
  }
  EXPECT_FALSE(process_exists(worker)) << "the killed worker was not reaped";
  EXPECT_EQ(segments_of_this_process(), segments_before);
}

// ---- bad input --------------------------------------------------------------------------------

TEST_P(QueuedWorkerHost, MismatchedLengthsAreInvalidArgumentAndTheSessionStaysUsable) {
  worker_session session(setup());
  std::vector<float> a(8, 1.0f), b(7, 2.0f), out(8);
  const std::vector<work_item> items{{a, b}};
  const std::vector<std::span<float>> outputs{out};
  EXPECT_THROW(session.run_batch(items, outputs), std::invalid_argument);
  std::vector<float> short_out(7);
  const std::vector<work_item> equal{{a, a}};
  const std::vector<std::span<float>> short_outputs{short_out};
  EXPECT_THROW(session.run_batch(equal, short_outputs), std::invalid_argument);
  EXPECT_THROW(session.run_batch(equal, {}), std::invalid_argument);
  test_batch batch({4100});
  EXPECT_THROW(session.run_batch(batch.items(), batch.outputs()), std::invalid_argument)
      << "an item over max_item_elements";
  test_batch good({4099});
  session.run_batch(good.items(), good.outputs());
  EXPECT_TRUE(good.verify().passed());
}

TEST(QueuedWorkerSetup, ImpossibleSetupsAreInvalidArgumentBeforeAnythingStarts) {
  auto setup = setup_for("streamed", compute_target::host_stand_in, 16, "setup");
  setup.slot_count = 1;
  EXPECT_THROW(worker_session{setup}, std::invalid_argument);
  setup.slot_count = 4;
  setup.max_item_elements = 0;
  EXPECT_THROW(worker_session{setup}, std::invalid_argument);
  setup.max_item_elements = 16;
  setup.variant = "slots";
  setup.fixes.task_done_for_sentinel = false;
  EXPECT_THROW(worker_session{setup}, std::invalid_argument);
  setup.fixes = {};
  setup.variant = "pool";  // no such variant in the table
  EXPECT_THROW(worker_session{setup}, std::invalid_argument);
}

// ---- the recipe's two deadlocks, and handoff's fixes -------------------------------------------

class RecipeDeadlocks : public testing::Test {
 protected:
  void TearDown() override { EXPECT_TRUE(segments_of_this_process().empty()); }
  static worker_setup seed_setup(std::size_t max_elements, const std::string& what,
                                 std::chrono::milliseconds deadline = join_deadline) {
    auto setup = setup_for("seed", compute_target::host_stand_in, max_elements, what);
    setup.join_timeout = deadline;
    return setup;
  }
  static constexpr std::chrono::milliseconds join_deadline{1000};
  static constexpr std::chrono::milliseconds results_join_deadline{5000};
  // The deadline may be overrun by one liveness check and the kill of the worker, not more.
  static constexpr double allowed_overrun_seconds = 3.0;
  static constexpr double spawn_and_write_allowance_seconds = 40.0;
};

// Deadlock 1: the recipe's worker breaks out of its loop on None without task_done, so
// data_queue.join() waits for that task forever. Here it ends at its deadline.
TEST_F(RecipeDeadlocks, Deadlock1_SentinelWithoutTaskDone_DataQueueJoinTimesOut) {
  auto setup = seed_setup(4099, "deadlock1");
  setup.fixes.task_done_for_sentinel = false;  // the recipe, literally
  worker_session session(setup);
  test_batch batch({4099, 1027});
  const auto start = wall_clock::now();
  try {
    session.run_batch(batch.items(), batch.outputs());
    FAIL() << "data_queue.join() returned although the sentinel's task was never done";
  } catch (const transport::deadline_exceeded& error) {
    EXPECT_TRUE(contains(error.what(), "data_queue.join()")) << error.what();
    EXPECT_TRUE(contains(error.what(), "1 task(s) unfinished")) << error.what();
  }
  const double waited = seconds_since(start);
  EXPECT_GE(waited, 1.0);
  EXPECT_LT(waited, 1.0 + allowed_overrun_seconds);
  // The results were drained before the join (fix 2 is on): only the join is stuck.
  EXPECT_TRUE(batch.verify().passed());
}

TEST_F(RecipeDeadlocks, Fix1_TaskDoneForSentinel_DataQueueJoinReturns) {
  worker_session session(seed_setup(4099, "fix1"));
  for (int round = 0; round < 2; ++round) {
    test_batch batch({4099, 1027});
    const auto start = wall_clock::now();
    session.run_batch(batch.items(), batch.outputs());
    EXPECT_LT(seconds_since(start), 1.0);
    EXPECT_TRUE(batch.verify().passed());
  }
}

// Deadlock 2: the recipe joins the worker before it takes a single result. A 4 MB result does not
// fit in the results pipe, so the worker cannot finish putting it and cannot exit: its exit wait
// ends at the deadline, with the results still undrained.
TEST_F(RecipeDeadlocks, Deadlock2_JoinWorkerBeforeDrainingFourMegabyteResults_TimesOut) {
  // data_queue.join() must return first, once the worker has taken all three 4 MB items, which
  // TSan on a loaded machine slows many times over; the worker's exit then waits out the deadline.
  auto setup = seed_setup(four_megabytes_of_floats, "deadlock2", results_join_deadline);
  setup.fixes.drain_results_before_join = false;  // the recipe's order, literally
  test_batch batch(std::vector<std::size_t>(3, four_megabytes_of_floats));
  const auto start = wall_clock::now();
  try {
    run_once(setup, batch.items(), batch.outputs());
    FAIL() << "the worker exited although nobody read its 4 MB results";
  } catch (const transport::deadline_exceeded& error) {
    // data_queue.join() returned (fix 1 is on); the worker's exit is what never came.
    EXPECT_TRUE(contains(error.what(), "joining worker")) << error.what();
    EXPECT_TRUE(contains(error.what(), "3 result(s) were still undrained")) << error.what();
  }
  const double waited = seconds_since(start);
  const double deadline_seconds = std::chrono::duration<double>(results_join_deadline).count();
  EXPECT_GE(waited, deadline_seconds);
  // Plus the spawn, the 12 MB written and consumed, and the worker's shutdown, which TSan slows
  // many times over. The bound tells a deadline from a hang; the message above tells which
  // deadline ended it.
  EXPECT_LT(waited, deadline_seconds + allowed_overrun_seconds + spawn_and_write_allowance_seconds);
  EXPECT_FALSE(batch.verify().passed()) << "no result can have been read";
}

TEST_F(RecipeDeadlocks, Fix2_DrainResultsThenJoin_CompletesWithFourMegabyteResults) {
  test_batch batch(std::vector<std::size_t>(3, four_megabytes_of_floats));
  const auto start = wall_clock::now();
  run_once(seed_setup(four_megabytes_of_floats, "fix2", results_join_deadline), batch.items(),
           batch.outputs());
  // Without the fix the run throws deadline_exceeded at its deadline; this bound only catches a
  // hang.
  EXPECT_LT(seconds_since(start), 60.0);
  EXPECT_TRUE(batch.verify().passed()) << batch.verify().describe();
}

}  // namespace
}  // namespace handoff::patterns::queued_worker

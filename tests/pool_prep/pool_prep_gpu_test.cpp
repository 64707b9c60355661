// pool_prep on the device beyond its conformance test: a device worker killed mid-batch is
// reported by name, and seed 000 example 1's bug (CUDA initialised in the parent, then a forked
// pool running the chunk step) is caught and named.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <string>
#include <vector>

#include "handoff/fork_guard.hpp"
#include "handoff/patterns/pool_prep/map_pool.hpp"
#include "handoff/patterns/pool_prep/map_worker.hpp"
#include "handoff/patterns/workloads/seed_vector_add.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/pool_prep_inputs.hpp"
#include "handoff/reference/verify.hpp"
#include "pool_prep/pool_prep_test_support.hpp"
#include "support/forked_child.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::patterns::pool_prep {
namespace {

using namespace std::chrono_literals;
using namespace testing_support;

// The seed variant's workers hold CUDA contexts; killing one mid-batch is still worker_died by
// name, and nothing is left running.
TEST(PoolPrepDevice, AKilledDeviceWorkerIsReportedByName) {
  HANDOFF_REQUIRE_GPUS(1);
  const std::string name = test_purpose("killed-device");
  map_pool pool({.workers = 2,
                 .target = compute_target::device,
                 .patience = 30s,
                 .name = name,
                 .stall_on_chunk = 1});
  const std::vector<pid_t> pids{pool.worker_pid(0), pool.worker_pid(1)};
  std::vector<float> out(1 << 16);
  auto batch_done = std::async(std::launch::async, [&] {
    return pool.run({.total_elements = out.size(), .chunks = 4}, out);
  });
  EXPECT_EQ(batch_done.wait_for(500ms), std::future_status::timeout) << "the batch did not stall";
  ASSERT_EQ(::kill(pids[1], SIGKILL), 0);
  ASSERT_EQ(batch_done.wait_for(10s), std::future_status::ready) << "the batch hung";
  try {
    batch_done.get();
    FAIL() << "a batch with a killed worker succeeded";
  } catch (const transport::worker_died& error) {
    EXPECT_EQ(error.worker(), name + "-1");
  }
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_runs(pid)) << pid;
}

// --- Seed 000 example 1's bug: `import pycuda.autoinit` in the parent, then a forked Pool -------

enum child_verdict : int {
  refused_by_name = 0,
  chunk_ran_on_the_device = 1,
  message_lacks_a_pid = 2,
  wrong_pids_recorded = 3,
  wrong_exception_type = 4,
  step_not_refused = 5,
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// What a forked pool worker of the recipe does: process_chunk, whose seed_vector_add is the first
// thing to touch the device after the chunk has been prepared.
int run_the_recipes_step_in_the_child(pid_t parent) {
  const pid_t child = ::getpid();
  try {
    stage_times stages;
    (void)process_chunk(compute_target::device, {}, {.offset = 0, .count = 1 << 16}, stages);
    return chunk_ran_on_the_device;
  } catch (const cuda_used_after_fork& error) {
    if (error.cuda_parent() != parent || error.child() != child) return wrong_pids_recorded;
    const std::string message = error.what();
    if (!contains(message, std::to_string(parent)) || !contains(message, std::to_string(child))) {
      return message_lacks_a_pid;
    }
  } catch (...) {
    return wrong_exception_type;
  }
  // The step itself, called directly as the queued worker would, is refused the same way.
  try {
    std::vector<float> a(16, 1.0f), b(16, 2.0f), c(16);
    stage_times stages;
    seed_vector_add(compute_target::device, a, b, c, stages);
    return step_not_refused;
  } catch (const cuda_used_after_fork&) {
  } catch (...) {
    return wrong_exception_type;
  }
  return refused_by_name;
}

TEST(PoolPrepDevice, AForkedPoolOfACudaParentIsCaughtAndNamed) {
  HANDOFF_REQUIRE_GPUS(1);
  // The parent runs the recipe's step once itself, which initialises CUDA here, as
  // `import pycuda.autoinit` does at the top of the recipe.
  stage_times stages;
  const auto before =
      process_chunk(compute_target::device, {}, {.offset = 0, .count = 1024}, stages);
  ASSERT_EQ(before.size(), 1024U);
  ASSERT_FALSE(forked_after_cuda_initialisation());
  const pid_t parent = ::getpid();
  // multiprocessing.Pool's default start method on Linux is fork: two "pool workers".
  for (int worker = 0; worker < 2; ++worker) {
    const auto outcome = ::handoff::test_support::run_in_forked_child(
        [parent] { return run_the_recipes_step_in_the_child(parent); });
    EXPECT_TRUE(outcome.exited) << outcome.description;
    EXPECT_EQ(outcome.code, refused_by_name) << outcome.description;
  }
  // The spawned pool, handoff's fix, runs the same step from the same parent and verifies.
  map_pool pool({.workers = 2, .target = compute_target::device, .name = test_purpose("fixed")});
  std::vector<float> out(1 << 16);
  reference::poison(out);
  pool.run({.total_elements = out.size(), .chunks = 4}, out);
  const auto expected = reference::expected_chunked_vector_add(out.size(), {});
  EXPECT_TRUE(reference::verify_elementwise(expected, out).passed());
}

}  // namespace
}  // namespace handoff::patterns::pool_prep

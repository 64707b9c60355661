// pool_prep on the CPU beyond its conformance test: how a batch is cut, bad input, deadlines, a
// worker killed mid-batch or while idle, and the host stand-in's reported stages, with the host
// stand-in doing the add, so CI exercises it without a GPU.

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <functional>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "handoff/device_discovery.hpp"
#include "handoff/patterns/pool_prep/cpu_serial.hpp"
#include "handoff/patterns/pool_prep/map_pool.hpp"
#include "handoff/patterns/pool_prep/map_worker.hpp"
#include "handoff/patterns/pool_prep/shared_gpu_pool.hpp"
#include "handoff/patterns/pool_prep/threads_pipeline.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/pool_prep_inputs.hpp"
#include "handoff/reference/verify.hpp"
#include "handoff/transport/channels/channel_errors.hpp"
#include "pool_prep/pool_prep_test_support.hpp"

namespace handoff::patterns::pool_prep {
namespace {

using namespace std::chrono_literals;
using namespace testing_support;
using reference::array_split_chunk;
using reference::chunk_extent;

// --- How a batch is cut ---------------------------------------------------------------------

TEST(PoolPrepChunks, CutLikeNumpyArraySplit) {
  // np.array_split(np.arange(10), 3) -> sizes 4, 3, 3.
  EXPECT_EQ(array_split_chunk(10, 3, 0), (chunk_extent{0, 4}));
  EXPECT_EQ(array_split_chunk(10, 3, 1), (chunk_extent{4, 3}));
  EXPECT_EQ(array_split_chunk(10, 3, 2), (chunk_extent{7, 3}));
  // More chunks than elements: the tail chunks are empty, as array_split makes them.
  EXPECT_EQ(array_split_chunk(2, 4, 1), (chunk_extent{1, 1}));
  EXPECT_EQ(array_split_chunk(2, 4, 3), (chunk_extent{2, 0}));
  EXPECT_EQ(reference::array_split_max_chunk(10, 3), 4U);
  EXPECT_EQ(reference::array_split_max_chunk(9, 3), 3U);
}

TEST(PoolPrepChunks, EveryElementBelongsToExactlyOneChunk) {
  for (const std::size_t total : {0UL, 1UL, 7UL, 1000UL, 1001UL}) {
    for (const std::size_t chunks : {1UL, 2UL, 3UL, 7UL, 11UL}) {
      std::size_t next = 0;
      for (std::size_t index = 0; index < chunks; ++index) {
        const auto extent = array_split_chunk(total, chunks, index);
        EXPECT_EQ(extent.offset, next) << total << "/" << chunks << " chunk " << index;
        next += extent.count;
      }
      EXPECT_EQ(next, total) << total << "/" << chunks;
    }
  }
}

TEST(PoolPrepChunks, ImpossibleCutsAreTypedErrors) {
  EXPECT_THROW(array_split_chunk(10, 0, 0), std::invalid_argument);
  EXPECT_THROW(array_split_chunk(10, 3, 3), std::invalid_argument);
  EXPECT_THROW(check_batch({.total_elements = 5, .chunks = 0}), std::invalid_argument);
  EXPECT_NO_THROW(check_batch({.total_elements = 0, .chunks = 0}));
  EXPECT_THROW(check_batch({.total_elements = 100, .chunks = 2}, 49), std::invalid_argument);
}

TEST(PoolPrepChunks, AChunkIsPreparedFromItsGlobalIndices) {
  const reference::vector_add_seeds seeds{.a = 11, .b = 12};
  std::vector<float> a(50), b(50), whole_a(150), whole_b(150);
  reference::prepare_vector_add_chunk(seeds, 100, a, b);
  reference::fill_seeded_nonzero(whole_a, seeds.a);
  reference::fill_seeded_nonzero(whole_b, seeds.b);
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i], whole_a[100 + i]) << i;
    ASSERT_EQ(b[i], whole_b[100 + i]) << i;
    ASSERT_NE(a[i], 0.0f);
  }
  EXPECT_NE(a, b);  // two streams, not one
}

TEST(PoolPrepChunks, TheRecipesStepReturnsItsChunkByValue) {
  stage_times stages;
  const auto c =
      process_chunk(compute_target::host_stand_in, {}, {.offset = 300, .count = 77}, stages);
  const auto expected = reference::expected_chunked_vector_add(377, {});
  ASSERT_EQ(c.size(), 77U);
  EXPECT_TRUE(reference::verify_elementwise(std::span(expected).subspan(300), c).passed());
  EXPECT_GT(stages.prep, 0.0);
}

// --- Batches no variant can run ------------------------------------------------------------
// (Complete, ordered results for every variant at every shape are the conformance test's.)

// Every variant rejects a batch with elements but no chunks, or an output of the wrong size, with
// std::invalid_argument, and takes the next batch.
TEST(PoolPrepHost, ABatchThatDoesNotFitIsATypedError) {
  const auto host = compute_target::host_stand_in;
  {
    cpu_serial serial;
    map_pool map({.workers = 2, .target = host, .name = test_purpose("misfit")});
    shared_gpu_pool shared({.workers = 2,
                            .max_chunk_elements = 1024,
                            .target = host,
                            .purpose = test_purpose("misfit")});
    threads_pipeline threads({.prep_threads = 2, .max_chunk_elements = 1024, .target = host});
    const std::function<stage_times(const batch&, std::span<float>)> runs[] = {
        [&](const batch& work, std::span<float> out) { return serial.run(work, out); },
        [&](const batch& work, std::span<float> out) { return map.run(work, out); },
        [&](const batch& work, std::span<float> out) { return shared.run(work, out); },
        [&](const batch& work, std::span<float> out) { return threads.run(work, out); },
    };
    for (const auto& run : runs) {
      std::vector<float> out(99);
      EXPECT_THROW(run({.total_elements = 100, .chunks = 0}, out), std::invalid_argument);
      EXPECT_THROW(run({.total_elements = 100, .chunks = 2}, out), std::invalid_argument);
      std::vector<float> right(100);
      EXPECT_NO_THROW(run({.total_elements = 100, .chunks = 2}, right));  // it survives
    }
  }
  EXPECT_TRUE(segments_containing(test_purpose("misfit")).empty()) << "once the pools are gone";
}

TEST(PoolPrepHost, ChunksLongerThanTheSlotsAreRefused) {
  shared_gpu_pool pool({.workers = 1,
                        .max_chunk_elements = 64,
                        .target = compute_target::host_stand_in,
                        .purpose = test_purpose("long")});
  std::vector<float> out(200);
  EXPECT_THROW(pool.run({.total_elements = 200, .chunks = 2}, out), std::invalid_argument);
  threads_pipeline threads(
      {.prep_threads = 1, .max_chunk_elements = 64, .target = compute_target::host_stand_in});
  EXPECT_THROW(threads.run({.total_elements = 200, .chunks = 2}, out), std::invalid_argument);
}

TEST(PoolPrepHost, ZeroWorkersIsATypedError) {
  EXPECT_THROW(map_pool({.workers = 0, .target = compute_target::host_stand_in}),
               std::invalid_argument);
  EXPECT_THROW(shared_gpu_pool({.workers = 0, .target = compute_target::host_stand_in}),
               std::invalid_argument);
  EXPECT_THROW(threads_pipeline({.prep_threads = 0, .target = compute_target::host_stand_in}),
               std::invalid_argument);
  EXPECT_THROW(
      shared_gpu_pool(
          {.workers = 1, .max_chunk_elements = 0, .target = compute_target::host_stand_in}),
      std::invalid_argument);
}

TEST(PoolPrepHost, OneStagingSlotStillCompletesTheBatch) {
  threads_pipeline threads({.prep_threads = 3,
                            .max_chunk_elements = 512,
                            .target = compute_target::host_stand_in,
                            .staging_slots = 1});
  std::vector<float> out(5000);
  reference::poison(out);
  threads.run({.total_elements = 5000, .chunks = 11}, out);
  const auto expected = reference::expected_chunked_vector_add(5000, {});
  EXPECT_TRUE(reference::verify_elementwise(expected, out).passed());
}

TEST(PoolPrepHost, StagesAreReported) {
  map_pool pool(
      {.workers = 2, .target = compute_target::host_stand_in, .name = test_purpose("stages")});
  std::vector<float> out(100000);
  const auto stages = pool.run({.total_elements = 100000, .chunks = 4}, out);
  EXPECT_GT(stages.prep, 0.0);
  EXPECT_GT(stages.kernel, 0.0);  // the host stand-in's add
  EXPECT_GT(stages.deserialize, 0.0);
  EXPECT_GT(stages.post, 0.0);
  EXPECT_EQ(stages.h2d, 0.0);
  pool.shutdown();
  EXPECT_TRUE(pool.terminated());
}

// A worker that dies while it holds no chunk wakes the coordinator's wait as well: that must be
// reported as the worker's death, with how it ended, not as a reply out of turn.
TEST(PoolPrepHost, AWorkerThatDiesIdleIsReportedAsDead) {
  map_pool pool({.workers = 2,
                 .target = compute_target::host_stand_in,
                 .patience = 20s,
                 .name = test_purpose("idle-death")});
  const pid_t idle = pool.worker_pid(1);
  const std::string victim = pool.worker_name(1);
  ASSERT_EQ(::kill(idle, SIGKILL), 0);
  while (process_runs(idle))
    std::this_thread::sleep_for(1ms);
  // One chunk, large enough that worker 0 is still preparing it when the wait starts: worker 0
  // gets it, worker 1 has nothing to answer for.
  std::vector<float> out(1 << 20);
  try {
    pool.run({.total_elements = out.size(), .chunks = 1}, out);
    FAIL() << "a batch with a dead worker succeeded";
  } catch (const transport::worker_died& error) {
    EXPECT_EQ(error.worker(), victim);
    EXPECT_NE(std::string(error.what()).find("signal 9"), std::string::npos) << error.what();
  }
}

// --- A worker killed mid-batch --------------------------------------------------------------

struct killed_worker_case {
  bool on_map_pool;  // else on shared_gpu_pool
  const char* name;
};

class PoolPrepKilledWorker : public testing::TestWithParam<killed_worker_case> {};

// The worker that gets chunk 1 (worker 1 in both pools) stalls; the test kills it while the batch
// is in flight. The pattern must fail with worker_died naming that worker, well within its
// deadline, and leave no worker process and no segment behind.
TEST_P(PoolPrepKilledWorker, FailsNamingTheWorkerAndLeavesNothingBehind) {
  const std::string purpose = test_purpose(std::string("killed-") + GetParam().name);
  std::unique_ptr<map_pool> map;
  std::unique_ptr<shared_gpu_pool> shared;
  std::vector<pid_t> pids;
  std::string victim;
  constexpr auto patience = 20s;
  if (GetParam().on_map_pool) {
    map = std::make_unique<map_pool>(map_pool_options{.workers = 2,
                                                      .target = compute_target::host_stand_in,
                                                      .patience = patience,
                                                      .name = purpose,
                                                      .stall_on_chunk = 1});
    pids = {map->worker_pid(0), map->worker_pid(1)};
    victim = map->worker_name(1);
  } else {
    shared = std::make_unique<shared_gpu_pool>(
        shared_gpu_options{.workers = 2,
                           .max_chunk_elements = 4096,
                           .target = compute_target::host_stand_in,
                           .patience = patience,
                           .purpose = purpose,
                           .stall_on_chunk = 1});
    pids = {shared->worker_pid(0), shared->worker_pid(1)};
    victim = shared->worker_name(1);
  }
  std::vector<float> out(16000);
  const batch work{.total_elements = out.size(), .chunks = 4};
  auto batch_done = std::async(std::launch::async,
                               [&] { return map ? map->run(work, out) : shared->run(work, out); });
  // Long enough for worker 1 to have taken chunk 1 and stalled on it.
  EXPECT_EQ(batch_done.wait_for(300ms), std::future_status::timeout) << "the batch did not stall";
  ASSERT_EQ(::kill(pids[1], SIGKILL), 0);
  const auto killed_at = std::chrono::steady_clock::now();
  ASSERT_EQ(batch_done.wait_for(10s), std::future_status::ready) << "the batch hung";
  try {
    batch_done.get();
    FAIL() << "a batch with a killed worker succeeded";
  } catch (const transport::worker_died& error) {
    EXPECT_EQ(error.worker(), victim);
    EXPECT_NE(std::string(error.what()).find(victim), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("signal 9"), std::string::npos) << error.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - killed_at, 5s);
  // The pool terminated itself: nothing runs, no more batches, and once it is gone no segment of
  // it is left held.
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_runs(pid)) << pid;
  if (map) {
    EXPECT_TRUE(map->terminated());
    EXPECT_THROW(map->run(work, out), pool_terminated);
  } else {
    EXPECT_TRUE(shared->terminated());
    EXPECT_THROW(shared->run(work, out), pool_terminated);
  }
  map.reset();
  shared.reset();
  EXPECT_TRUE(segments_containing(purpose).empty());
}

INSTANTIATE_TEST_SUITE_P(Pools, PoolPrepKilledWorker,
                         testing::Values(killed_worker_case{true, "map_pool"},
                                         killed_worker_case{false, "shared_gpu"}),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

// The workers' patience in the stalled-worker tests. It also bounds their start-up handshake, which
// TSan on a loaded machine slows many times over: a shorter patience failed the tests before any
// chunk stalled.
constexpr auto stalled_patience = 2s;

TEST(PoolPrepHost, AStalledWorkerMeetsTheDeadline) {
  const std::string purpose = test_purpose("stalled");
  map_pool pool({.workers = 2,
                 .target = compute_target::host_stand_in,
                 .patience = stalled_patience,
                 .name = purpose,
                 .stall_on_chunk = 0});
  const std::vector<pid_t> pids{pool.worker_pid(0), pool.worker_pid(1)};
  std::vector<float> out(1000);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(pool.run({.total_elements = 1000, .chunks = 3}, out), transport::deadline_exceeded);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5 * stalled_patience);
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_runs(pid)) << pid;
}

TEST(PoolPrepHost, AStalledRingWorkerMeetsTheDeadline) {
  const std::string purpose = test_purpose("stalled-ring");
  {
    shared_gpu_pool pool({.workers = 2,
                          .max_chunk_elements = 1000,
                          .target = compute_target::host_stand_in,
                          .patience = stalled_patience,
                          .purpose = purpose,
                          .stall_on_chunk = 2});
    const std::vector<pid_t> pids{pool.worker_pid(0), pool.worker_pid(1)};
    std::vector<float> out(1000);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_THROW(pool.run({.total_elements = 1000, .chunks = 3}, out),
                 transport::deadline_exceeded);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5 * stalled_patience);
    for (const pid_t pid : pids)
      EXPECT_FALSE(process_runs(pid)) << pid;
  }
  EXPECT_TRUE(segments_containing(purpose).empty()) << "once the pool is gone";
}

// Each device worker creates its CUDA context before it reports ready: where there is no GPU
// (CI), that fails, and the pool says which worker could not start; where there is one, the pool
// starts.
TEST(PoolPrepHost, ADeviceWorkerStartsOnlyWhereCudaCan) {
  const std::string name = test_purpose("device-start");
  if (gpu_count().count > 0) {
    EXPECT_NO_THROW(map_pool({.workers = 1, .target = compute_target::device, .name = name}));
    return;
  }
  try {
    map_pool pool({.workers = 1, .target = compute_target::device, .name = name});
    FAIL() << "a device worker started without a GPU";
  } catch (const transport::process_error& error) {
    EXPECT_NE(std::string(error.what()).find(name + "-0"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("could not start"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace handoff::patterns::pool_prep

// postproc_split's process variants with the host stand-in for the device: the same spawned
// workers, requests, shared segments, chunk-by-chunk readiness and failure handling as on a GPU,
// with c in host memory and the copy back a memcpy, so CI runs the whole orchestration.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "handoff/patterns/postproc_split/chunk_sum.hpp"
#include "handoff/patterns/postproc_split/chunked_copy_back.hpp"
#include "handoff/patterns/postproc_split/split_variants.hpp"
#include "handoff/patterns/postproc_split/summing_pool.hpp"
#include "handoff/patterns/postproc_split/summing_worker.hpp"
#include "handoff/patterns/process/worker_role.hpp"
#include "handoff/reference/compensated_sum.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/verify.hpp"
#include "support/leak_checks.hpp"

namespace handoff::patterns::postproc_split {
namespace {

using namespace std::chrono_literals;

HANDOFF_WORKER_ROLE(summing_worker_role, run_summing_worker);

// Names this test process's workers and segments, so tests running beside it cannot disturb the
// leak checks.
std::string test_name() {
  return "pps-test-" + std::to_string(::getpid());
}

std::set<std::string> segments_of_this_test() {
  const std::string prefix = "handoff-" + test_name();
  return handoff::leak_checks::shm_segments_containing(prefix);
}

using handoff::leak_checks::process_runs;

std::vector<float> seeded(std::size_t count, std::uint64_t seed) {
  std::vector<float> values(count);
  reference::fill_seeded_nonzero(values, seed);
  return values;
}

split_setup setup(std::size_t workers, std::size_t chunks) {
  return {.workers = workers, .chunks = chunks, .patience = 10s, .name = test_name()};
}

std::unique_ptr<pooled_split> on_host(split_variant variant, const std::vector<float>& c,
                                      const split_setup& config) {
  return make_pooled_split(variant, {compute_target::host_stand_in, c}, config);
}

struct split_case {
  std::size_t count;
  std::size_t chunks;
  std::size_t workers;
};

class HostSplit : public testing::TestWithParam<split_variant> {
 protected:
  void TearDown() override {
    EXPECT_TRUE(segments_of_this_test().empty()) << testing::PrintToString(segments_of_this_test());
  }
};

// 0 elements; 1 element; more chunks than elements; fewer chunks than workers; sizes that do not
// divide evenly; many chunks per worker.
TEST_P(HostSplit, SumsAndPartialSumsAreCorrectAtEdgeSizes) {
  const std::vector<split_case> cases{{0, 3, 2},  {0, 0, 2},       {1, 1, 4},    {1, 3, 4},
                                      {10, 3, 4}, {100'003, 7, 3}, {1027, 1, 2}, {1 << 20, 37, 4}};
  for (const auto& [count, chunks, workers] : cases) {
    SCOPED_TRACE(testing::Message()
                 << count << " elements, " << chunks << " chunks, " << workers << " workers");
    const auto c = seeded(count, 0xC0 + count);
    auto split = on_host(GetParam(), c, setup(workers, chunks));
    for (int batch = 0; batch < 2; ++batch) {
      split->poison();
      ASSERT_TRUE(std::isnan(split->result()));
      stage_times stages;
      const double sum = split->run(stages);
      EXPECT_EQ(sum, split->result());
      const auto verdict = reference::verify_reduction(reference::compensated_sum(c), sum);
      EXPECT_TRUE(verdict.passed()) << verdict.describe();
      // Complete and in order: every chunk's partial is exactly what summing that chunk gives.
      ASSERT_EQ(split->partials().size(), chunks);
      for (std::size_t index = 0; index < chunks; ++index) {
        const auto piece = split->chunks()[index];
        // overlapped adds its pieces' sums, so only the last bits may differ.
        const double whole = sum_chunk(std::span(c).subspan(piece.offset, piece.count));
        EXPECT_NEAR(split->partials()[index], whole, 1e-12 * std::max(1.0, std::abs(whole)))
            << "chunk " << index;
      }
    }
  }
}

TEST_P(HostSplit, PartialSumsAreAssembledInChunkOrder) {
  // Chunk k holds only the value k + 1, so each partial names the chunk it came from.
  constexpr std::size_t chunks = 37;
  const auto pieces = array_split(100'000, chunks);
  std::vector<float> c(100'000);
  for (std::size_t index = 0; index < chunks; ++index) {
    std::fill_n(c.begin() + static_cast<std::ptrdiff_t>(pieces[index].offset), pieces[index].count,
                static_cast<float>(index + 1));
  }
  auto split = on_host(GetParam(), c, setup(4, chunks));
  for (int batch = 0; batch < 3; ++batch) {
    split->poison();
    stage_times stages;
    split->run(stages);
    for (std::size_t index = 0; index < chunks; ++index) {
      EXPECT_EQ(split->partials()[index], static_cast<double>((index + 1) * pieces[index].count))
          << "chunk " << index;
    }
  }
}

TEST_P(HostSplit, StagesAccountForTheCopyAndTheWorkersSums) {
  const auto c = seeded(1 << 20, 3);
  auto split = on_host(GetParam(), c, setup(2, 8));
  stage_times stages;
  split->run(stages);
  EXPECT_GT(stages.d2h, 0.0);
  EXPECT_GT(stages.post, 0.0);
  if (GetParam() == split_variant::seed) {
    EXPECT_GT(stages.deserialize, 0.0);
  }
}

TEST_P(HostSplit, AKilledWorkerFailsTheBatchByNameWithinThePatience) {
  constexpr auto patience = 5s;
  std::vector<pid_t> pids;
  std::chrono::steady_clock::time_point killed_at;
  {
    const auto c = seeded(std::size_t{8} << 20, 17);
    auto config = setup(4, 64);
    config.patience = patience;
    auto split = on_host(GetParam(), c, config);
    for (std::size_t index = 0; index < split->pool().size(); ++index)
      pids.push_back(split->pool().worker_pid(index));
    stage_times stages;
    split->run(stages);
    std::thread killer([&] {
      std::this_thread::sleep_for(5ms);
      killed_at = std::chrono::steady_clock::now();
      ::kill(pids[1], SIGKILL);
    });
    std::string worker;
    std::string message;
    for (int attempt = 0; attempt < 1000 && worker.empty(); ++attempt) {
      try {
        split->run(stages);
      } catch (const worker_died& error) {
        worker = error.worker();
        message = error.what();
      }
    }
    killer.join();
    ASSERT_FALSE(worker.empty()) << "no batch failed after the worker was killed";
    EXPECT_LT(std::chrono::steady_clock::now() - killed_at, patience);
    EXPECT_EQ(worker, test_name() + "-1");
    EXPECT_NE(message.find(test_name() + "-1"), std::string::npos) << message;
    EXPECT_NE(message.find("signal 9"), std::string::npos) << message;
  }
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_runs(pid)) << pid;
}

TEST_P(HostSplit, BadSetupsAreTypedErrors) {
  const auto c = seeded(100, 1);
  EXPECT_THROW(on_host(GetParam(), c, setup(0, 4)), std::invalid_argument);
  EXPECT_THROW(on_host(GetParam(), c, setup(2, 0)), std::invalid_argument);
}

TEST_P(HostSplit, ColdStartsLeaveNoProcessBehind) {
  const auto c = seeded(4099, 5);
  std::vector<pid_t> pids;
  for (int start = 0; start < 3; ++start) {
    auto split = on_host(GetParam(), c, setup(3, 5));
    for (std::size_t index = 0; index < split->pool().size(); ++index)
      pids.push_back(split->pool().worker_pid(index));
    stage_times stages;
    EXPECT_TRUE(
        reference::verify_reduction(reference::compensated_sum(c), split->run(stages)).passed());
    if (start == 0) split->pool().shutdown();  // a clean shutdown, then destruction
  }
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_runs(pid)) << pid;
}

INSTANTIATE_TEST_SUITE_P(Variants, HostSplit, testing::ValuesIn(all_split_variants),
                         [](const auto& variant) {
                           return std::string(split_variant_name(variant.param));
                         });

// A batch that failed leaves requests in flight; a shut-down pool has no channels. Either way a
// later batch is refused with a typed error, never fed stale replies or indexed past the end.
TEST(SummingPool, RefusesBatchesAfterAFailureAndAfterShutdown) {
  const std::vector<float> values(1000, 1.0f);
  const std::vector<chunk> chunks = {{.offset = 0, .count = 500}, {.offset = 500, .count = 500}};
  stage_times stages;
  {
    summing_pool pool(2, 5s, test_name());
    ASSERT_EQ(::kill(pool.worker_pid(1), SIGKILL), 0);
    EXPECT_THROW(pool.sum_by_value(values, chunks, stages), worker_died);
    EXPECT_THROW(pool.sum_by_value(values, chunks, stages), pool_unusable);
  }
  summing_pool pool(2, 5s, test_name());
  EXPECT_EQ(pool.sum_by_value(values, chunks, stages), (std::vector<double>{500.0, 500.0}));
  pool.shutdown();
  EXPECT_THROW(pool.sum_by_value(values, chunks, stages), pool_unusable);
}

TEST(SummingWorker, AMalformedRequestEndsTheWorkerWithAnError) {
  const std::vector<std::vector<std::byte>> malformed{
      std::vector<std::byte>(8, std::byte{0}),      // shorter than a header
      std::vector<std::byte>(64, std::byte{0xFF}),  // a header with the wrong magic
  };
  for (const auto& message : malformed) {
    worker_pool pool(test_name(), 1, {.role = summing_worker_role});
    pool.channel(0).send(message, deadline_clock::now() + 10s);
    try {
      pool.wait_for_message(deadline_clock::now() + 10s);
      pool.with_worker(0, [](connection& channel) {
        return channel.receive(deadline_clock::now() + 10s, 1024);
      });
      FAIL() << "the worker answered a malformed request";
    } catch (const worker_died& error) {
      EXPECT_TRUE(error.status().exited) << error.what();
      EXPECT_EQ(error.status().code, worker_uncaught_exit_code) << error.what();
    }
  }
}

TEST(ChunkedCopyBack, OnTheHostEveryChunkArrivesAndCanBeAwaitedInAnyOrder) {
  const auto c = seeded(100'003, 9);
  std::vector<float> destination(c.size());
  reference::poison(destination);
  chunked_copy_back copier({compute_target::host_stand_in, c}, destination,
                           array_split(c.size(), 7));
  EXPECT_THROW(copier.await(0), std::logic_error);
  for (int batch = 0; batch < 2; ++batch) {
    reference::poison(destination);
    copier.start();
    copier.await(6);
    copier.await(0);
    EXPECT_GE(copier.finish(), 0.0);
    EXPECT_TRUE(reference::verify_elementwise(c, destination, 0).passed());
  }
  EXPECT_THROW(copier.await(7), std::out_of_range);
}

}  // namespace
}  // namespace handoff::patterns::postproc_split

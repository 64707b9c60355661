// postproc_split's process variants with the host stand-in for the device, beyond what the
// conformance test checks of every row: each chunk's partial sum and its order, the stages, a
// worker killed mid-batch, bad setups, cold starts; and the pool, worker and chunked copy back on
// their own. c is in host memory and the copy back a memcpy, so CI runs the whole orchestration.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "handoff/patterns/postproc_split/chunk_sum.hpp"
#include "handoff/patterns/postproc_split/chunked_copy_back.hpp"
#include "handoff/patterns/postproc_split/pooled_split_session.hpp"
#include "handoff/patterns/postproc_split/summing_pool.hpp"
#include "handoff/patterns/postproc_split/summing_worker.hpp"
#include "handoff/patterns/postproc_split/variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/verify.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "handoff/wall_clock.hpp"
#include "support/leak_checks.hpp"

namespace handoff::patterns::postproc_split {

using transport::deadline_clock;
using transport::worker_died;

namespace {

using namespace std::chrono_literals;

HANDOFF_WORKER_ROLE(summing_worker_role, run_summing_worker);

// Names this test process's workers and segments, so tests running beside it cannot disturb the
// leak checks.
std::string test_name() {
  return "pps-test-" + std::to_string(::getpid());
}

using handoff::leak_checks::process_runs;

std::vector<float> seeded(std::size_t count, std::uint64_t seed) {
  std::vector<float> values(count);
  reference::fill_seeded_nonzero(values, seed);
  return values;
}

constexpr auto on_host = compute_target::host_stand_in;

// The process rows of the table through their sessions, with what only a pooled session shows:
// the partial sums and the workers.
class HostSplit : public testing::TestWithParam<std::string> {
 protected:
  const split_row& row() const { return find_row(postproc_split_variants(), GetParam()); }
  std::unique_ptr<session<split_case>> set_up(const split_point& at) const {
    return row().setup(at, on_host);
  }
  static const pooled_split& split_of(const session<split_case>& pooled) {
    const auto* split = dynamic_cast<const pooled_split_session&>(pooled).split();
    if (split == nullptr) throw std::logic_error("the session has not run yet");
    return *split;
  }
};

// Complete and in order: every chunk's partial is what summing that chunk gives, at sizes that do
// not divide evenly, with more chunks than elements, fewer than workers, or many per worker.
TEST_P(HostSplit, EveryPartialSumIsItsChunksSum) {
  for (const split_point at : {split_point{0, 3, 2, on_host}, split_point{1, 3, 4, on_host},
                               split_point{10, 3, 4, on_host}, split_point{1027, 1, 2, on_host},
                               split_point{1 << 20, 37, 4, on_host}}) {
    SCOPED_TRACE(testing::Message() << at.count << " elements, " << at.chunks << " chunks, "
                                    << at.workers << " workers");
    split_case work(on_host, seeded(at.count, 0xC0 + at.count));
    auto pooled = set_up(at);
    for (int batch = 0; batch < 2; ++batch) {
      pooled->poison(work);
      pooled->run(work);
      EXPECT_TRUE(pooled->verify(work).passed());
      const auto& split = split_of(*pooled);
      EXPECT_EQ(work.sum(), split.result());
      ASSERT_EQ(split.partials().size(), at.chunks);
      for (std::size_t index = 0; index < at.chunks; ++index) {
        const auto piece = split.chunks()[index];
        // overlapped adds its pieces' sums, so only the last bits may differ.
        const double whole = sum_chunk(work.host_c().subspan(piece.offset, piece.count));
        EXPECT_NEAR(split.partials()[index], whole, 1e-12 * std::max(1.0, std::abs(whole)))
            << "chunk " << index;
      }
    }
    pooled->shutdown();
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
  split_case work(on_host, std::move(c));
  auto pooled = set_up({100'000, chunks, 4, on_host});
  for (int batch = 0; batch < 3; ++batch) {
    pooled->poison(work);
    pooled->run(work);
    for (std::size_t index = 0; index < chunks; ++index) {
      EXPECT_EQ(split_of(*pooled).partials()[index],
                static_cast<double>((index + 1) * pieces[index].count))
          << "chunk " << index;
    }
  }
}

TEST_P(HostSplit, StagesAccountForTheCopyAndTheWorkersSums) {
  const split_point at{1 << 20, 8, 2, on_host};
  const auto work = make_split_case(at);
  auto pooled = set_up(at);
  const auto stages = pooled->run(*work).stages;
  EXPECT_GT(stages.d2h, 0.0);
  EXPECT_GT(stages.post, 0.0);
  if (GetParam() == "seed") {
    EXPECT_GT(stages.deserialize, 0.0);
  }
}

// Killed in the middle of a batch, not between batches: found by its channel's end long before
// the pool's patience runs out.
TEST_P(HostSplit, AWorkerKilledMidBatchFailsTheBatchByNameAtOnce) {
  constexpr double soon_seconds = 5.0;
  const split_point at{std::size_t{8} << 20, 64, 4, on_host};
  const auto work = make_split_case(at);
  std::vector<pid_t> pids;
  wall_clock::time_point killed_at;
  {
    auto pooled = set_up(at);
    pooled->run(*work);
    pids = pooled->peers();
    std::thread killer([&] {
      std::this_thread::sleep_for(5ms);
      killed_at = wall_clock::now();
      ::kill(pids[1], SIGKILL);
    });
    std::string worker;
    std::string message;
    for (int attempt = 0; attempt < 1000 && worker.empty(); ++attempt) {
      try {
        pooled->run(*work);
      } catch (const worker_died& error) {
        worker = error.worker();
        message = error.what();
      }
    }
    killer.join();
    ASSERT_FALSE(worker.empty()) << "no batch failed after the worker was killed";
    EXPECT_LT(seconds_since(killed_at), soon_seconds);
    EXPECT_EQ(worker, "postproc_split-1");
    EXPECT_NE(message.find("signal 9"), std::string::npos) << message;
  }
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_runs(pid)) << pid;
}

TEST_P(HostSplit, BadSetupsAreTypedErrors) {
  EXPECT_THROW(set_up({100, 4, 0, on_host}), std::invalid_argument);
  EXPECT_THROW(set_up({100, 0, 2, on_host}), std::invalid_argument);
}

TEST_P(HostSplit, ColdStartsLeaveNoProcessBehind) {
  const split_point at{4099, 5, 3, on_host};
  const auto work = make_split_case(at);
  std::vector<pid_t> pids;
  for (int start = 0; start < 3; ++start) {
    auto pooled = set_up(at);
    pooled->run(*work);
    EXPECT_TRUE(pooled->verify(*work).passed());
    for (const pid_t pid : pooled->peers())
      pids.push_back(pid);
    if (start == 0) pooled->shutdown();  // a clean shutdown, then destruction
  }
  for (const pid_t pid : pids)
    EXPECT_FALSE(process_runs(pid)) << pid;
}

INSTANTIATE_TEST_SUITE_P(Rows, HostSplit, testing::Values("seed", "shm", "overlapped"),
                         [](const auto& row) { return row.param; });

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
    EXPECT_THROW(pool.sum_by_value(values, chunks, stages), transport::pool_unusable);
  }
  summing_pool pool(2, 5s, test_name());
  EXPECT_EQ(pool.sum_by_value(values, chunks, stages), (std::vector<double>{500.0, 500.0}));
  pool.shutdown();
  EXPECT_THROW(pool.sum_by_value(values, chunks, stages), transport::pool_unusable);
}

TEST(SummingWorker, AMalformedRequestEndsTheWorkerWithAnError) {
  const std::vector<std::vector<std::byte>> malformed{
      std::vector<std::byte>(8, std::byte{0}),      // shorter than a header
      std::vector<std::byte>(64, std::byte{0xFF}),  // a header with the wrong magic
  };
  for (const auto& message : malformed) {
    transport::worker_pool pool(test_name(), 1, {.role = summing_worker_role});
    pool.channel(0).send(message, deadline_clock::now() + 10s);
    try {
      pool.wait_for_message(deadline_clock::now() + 10s);
      pool.with_worker(0, [](transport::connection& channel) {
        return channel.receive(deadline_clock::now() + 10s, 1024);
      });
      FAIL() << "the worker answered a malformed request";
    } catch (const worker_died& error) {
      EXPECT_TRUE(error.status().exited) << error.what();
      EXPECT_EQ(error.status().code, transport::worker_uncaught_exit_code) << error.what();
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

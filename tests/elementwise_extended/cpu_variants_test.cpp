// The CPU variants of seed 002's workloads beyond the conformance checks (conformance_test.cpp):
// thread and block remainders, the thread count, cpu_map's message and byte counts, and the typed
// errors for bad input. cpu_map's workers are this program started again in the map worker role.

#include <gtest/gtest.h>

#include <unistd.h>

#include <vector>

#include "handoff/patterns/elementwise/extended_cpu_blas.hpp"
#include "handoff/patterns/elementwise/extended_cpu_variants.hpp"
#include "handoff/patterns/elementwise/map_pool.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/parallel_for.hpp"
#include "handoff/transport/process_state.hpp"
#include "workload_inputs.hpp"

namespace handoff::patterns::elementwise {
namespace {

using test_support::workload_case;
using test_support::workload_inputs;

// One batch on pool into a poisoned output, checked against the reference.
map_batch_stats expect_batch_matches(const workload_case& test_case, map_pool& pool) {
  const workload_inputs inputs(test_case);
  const auto problem = inputs.problem();
  std::vector<float> out(problem.output_count());
  reference::poison(out);
  const auto batch = pool.run(problem, out);
  const auto result = inputs.verify(out);
  EXPECT_TRUE(result.passed()) << describe(test_case) << ": " << result.describe();
  return batch;
}

// Run twice, poisoned before each run, as the benchmark harness drives a variant.
template <class Variant, class... Extra>
void expect_matches_reference(const workload_case& test_case, Extra&... extra) {
  const workload_inputs inputs(test_case);
  Variant variant(inputs.problem(), extra...);
  for (int run = 0; run < 2; ++run) {
    variant.poison_output();
    variant.run();
    const auto result = inputs.verify(variant.result());
    EXPECT_TRUE(result.passed()) << describe(test_case) << " run " << run << ": "
                                 << result.describe();
  }
}

TEST(CpuChunked, MatchesTheReferenceAcrossThreadsAndBlocks) {
  // Sizes that give several threads uneven slices, and an affine order that crosses the loop's
  // k and j blocks with remainders.
  const std::size_t uneven = 3 * reference::parallel_grain + 7;
  expect_matches_reference<elementwise_cpu_chunked>({extended_workload::square, uneven});
  expect_matches_reference<elementwise_cpu_chunked>({extended_workload::neg_b_over_a, uneven});
  expect_matches_reference<elementwise_cpu_chunked>({extended_workload::affine, 530});
}

TEST(CpuChunked, UsesSeveralThreadsOnlyWhenTheWorkIsLarge) {
  const workload_inputs small({extended_workload::square, 10});
  elementwise_cpu_chunked few(small.problem());
  few.run();
  EXPECT_EQ(few.threads_used(), 1U);
  if (reference::default_thread_count() > 1) {
    const workload_inputs large({extended_workload::affine, 530});
    elementwise_cpu_chunked many(large.problem());
    many.run();
    EXPECT_GT(many.threads_used(), 1U);
  }
}

#ifdef HANDOFF_HAVE_OPENBLAS
// OpenBLAS's threads spin on after each call (and after it loads); a process that measures
// anything after cpu_blas must not have them running beside it.
TEST(CpuBlas, ItsLibrarysThreadsSleepOnceTheVariantIsGone) {
  const workload_inputs inputs({extended_workload::affine, 256});
  {
    elementwise_cpu_blas blas(inputs.problem());
    blas.run();
  }
  for (const int thread : transport::process_threads(::getpid())) {
    if (thread == ::gettid()) continue;
    EXPECT_NE(transport::process_state_letter(thread).value_or('-'), 'R')
        << "thread " << thread << " still runs";
  }
}

TEST(CpuBlas, RefusesElementwiseWorkloads) {
  const workload_inputs inputs({extended_workload::square, 4});
  EXPECT_THROW(elementwise_cpu_blas{inputs.problem()}, std::invalid_argument);
}
#endif

// A worker is this program started again, and this program holds cpu_blas: a library linked for it
// and started as it loads (OpenBLAS starts a spinning thread for nearly every core) would run in
// every worker of every pool, beside the rows being measured. The map worker needs none.
TEST(CpuMap, ItsWorkersRunOneThreadEach) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "ThreadSanitizer's runtime starts a thread of its own in every process";
#else
  map_pool pool(2);
  // Once a worker has answered, whatever its libraries start before main has started.
  expect_batch_matches({extended_workload::square, 1027}, pool);
  for (std::size_t index = 0; index < 2; ++index) {
    const auto threads = transport::process_threads(pool.worker_pid(index)).size();
    EXPECT_EQ(threads, 1U) << "worker " << index;
  }
#endif
}

TEST(CpuMap, OneWorkerGivesTheSameResults) {
  map_pool pool(1);
  expect_batch_matches({extended_workload::neg_b_over_a, 1027}, pool);
  expect_batch_matches({extended_workload::affine, 37}, pool);
  pool.shutdown();
}

TEST(CpuMap, CountsEveryMessageAndByte) {
  map_pool pool(2);
  const auto batch = expect_batch_matches({extended_workload::square, 100}, pool);
  // A set-up message per worker, then a task and a result per element.
  EXPECT_EQ(batch.messages, 2U + 2U * 100U);
  EXPECT_GT(batch.bytes, 200U * (8U + sizeof(float)));
  EXPECT_GE(batch.stages.serialize, 0.0);
  EXPECT_GT(batch.stages.deserialize, 0.0);
  pool.shutdown();
}

// cpu_map's floor prices map_batch_bytes, which must be what a batch writes.
TEST(CpuMap, TheFloorsBytesAreWhatABatchWrites) {
  map_pool pool(3);
  for (const workload_case test_case : {workload_case{extended_workload::square, 100},
                                        workload_case{extended_workload::neg_b_over_a, 7},
                                        workload_case{extended_workload::affine, 37}}) {
    const auto batch = expect_batch_matches(test_case, pool);
    EXPECT_EQ(batch.bytes, map_batch_bytes(test_case.workload, test_case.size, pool.size()))
        << describe(test_case);
  }
  pool.shutdown();
}

TEST(ExtendedInputs, BadInputIsATypedError) {
  const std::vector<float> ten(10, 1.0f), nine(9, 1.0f), hundred(100, 1.0f);
  EXPECT_THROW(extended_problem::neg_b_over_a(ten, nine), std::invalid_argument);
  EXPECT_THROW(extended_problem::affine(0, {}, {}, {}), std::invalid_argument);
  EXPECT_THROW(extended_problem::affine(10, hundred, hundred, nine), std::invalid_argument);
  EXPECT_THROW(extended_problem::affine(10, hundred, nine, ten), std::invalid_argument);
  EXPECT_THROW(extended_problem::affine(3, hundred, hundred, ten), std::invalid_argument);
  EXPECT_NO_THROW(extended_problem::affine(10, hundred, hundred, ten));
}

TEST(CpuMap, BadInputIsATypedError) {
  EXPECT_THROW(map_pool(0), std::invalid_argument);
  map_pool pool(1);
  const workload_inputs inputs({extended_workload::square, 8});
  std::vector<float> wrong_size(7);
  EXPECT_THROW(pool.run(inputs.problem(), wrong_size), std::invalid_argument);
  const std::size_t too_large = max_map_order + 1;
  const std::vector<float> matrix(too_large * too_large, 1.0f), column(too_large, 1.0f);
  std::vector<float> out(too_large * too_large);
  EXPECT_THROW(pool.run(extended_problem::affine(too_large, matrix, matrix, column), out),
               std::invalid_argument);
  // The pool is still usable after refusing bad input.
  expect_batch_matches({extended_workload::square, 8}, pool);
  pool.shutdown();
}

}  // namespace
}  // namespace handoff::patterns::elementwise

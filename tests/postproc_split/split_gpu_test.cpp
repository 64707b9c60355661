// postproc_split on the device, beyond what the conformance test checks of every row: the process
// variants' partial sums, and CUB's reduction shown to accumulate in double.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/float_sum_in_double.hpp"
#include "handoff/patterns/postproc_split/array_split.hpp"
#include "handoff/patterns/postproc_split/chunk_sum.hpp"
#include "handoff/patterns/postproc_split/chunked_copy_back.hpp"
#include "handoff/patterns/postproc_split/pooled_split_session.hpp"
#include "handoff/patterns/postproc_split/summing_worker.hpp"
#include "handoff/patterns/postproc_split/variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/verify.hpp"
#include "handoff/stream.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::patterns::postproc_split {
namespace {

HANDOFF_WORKER_ROLE(summing_worker_role, run_summing_worker);

constexpr auto device = compute_target::device;

struct split_size {
  std::size_t count;
  std::size_t chunks;
  std::size_t workers;
};

class DeviceSplit : public ::testing::TestWithParam<std::string> {};

// Beyond the conformance test's sums: every chunk's partial, in order, including 40 chunks for 2
// workers, where overlapped has more pieces than its copy window (8) holds, so copies are queued
// as the pieces are awaited.
TEST_P(DeviceSplit, EveryPartialSumIsItsChunksSum) {
  HANDOFF_REQUIRE_GPUS(1);
  const auto& row = find_row(postproc_split_variants(), GetParam());
  const std::vector<split_size> sizes{
      {1027, 3, 4}, {100'003, 7, 4}, {(1 << 20) + 5, 10, 3}, {(1 << 22) + 3, 40, 2}};
  for (const auto& [count, chunks, workers] : sizes) {
    SCOPED_TRACE(::testing::Message()
                 << count << " elements, " << chunks << " chunks, " << workers << " workers");
    const split_point at{count, chunks, workers, device};
    const auto work = make_split_case(at);
    auto pooled = row.setup(at, device);
    for (int batch = 0; batch < 2; ++batch) {
      pooled->poison(*work);
      pooled->run(*work);
      EXPECT_TRUE(pooled->verify(*work).passed());
      const auto* split = dynamic_cast<const pooled_split_session&>(*pooled).split();
      ASSERT_NE(split, nullptr);
      ASSERT_EQ(split->partials().size(), chunks);
      for (std::size_t index = 0; index < chunks; ++index) {
        const auto piece = split->chunks()[index];
        // overlapped adds its pieces' sums, so only the last bits may differ.
        const double whole = sum_chunk(work->host_c().subspan(piece.offset, piece.count));
        EXPECT_NEAR(split->partials()[index], whole, 1e-12 * std::max(1.0, std::abs(whole)))
            << "chunk " << index;
      }
    }
    pooled->shutdown();
  }
}

INSTANTIATE_TEST_SUITE_P(Rows, DeviceSplit, ::testing::Values("seed", "shm", "overlapped"),
                         [](const auto& row) { return row.param; });

// The copy back's time is its copies', however slowly its chunks are consumed: the last copy's
// event was once recorded again by every await() after the window had reached the last chunk and
// by finish(), so d2h read as the whole batch, consumers included.
TEST(ChunkedCopyBack, OnTheDeviceTimesTheCopiesNotTheirConsumer) {
  HANDOFF_REQUIRE_GPUS(1);
  using namespace std::chrono_literals;
  constexpr std::size_t count = std::size_t{1} << 20;  // 4 MiB: about 0.1 ms over PCIe
  constexpr std::size_t chunk_count = 8;               // all queued at start (window 8)
  constexpr auto consuming_each = 5ms;
  std::vector<float> values(count);
  reference::fill_seeded_nonzero(values, 0xC0B);
  const device_buffer<float> device_c(count);
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(device_c.data(), values.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  const pinned_buffer<float> destination(count);
  const double consuming_seconds =
      chunk_count * std::chrono::duration<double>(consuming_each).count();
  chunked_copy_back copier({device, device_c.span()}, destination.span(),
                           array_split(count, chunk_count), chunk_count);
  for (int batch = 0; batch < 2; ++batch) {
    reference::poison(destination.span());
    copier.start();
    for (std::size_t index = 0; index < chunk_count; ++index) {
      copier.await(index);
      std::this_thread::sleep_for(consuming_each);
    }
    const double copy_seconds = copier.finish();
    EXPECT_GT(copy_seconds, 0.0);
    // The consumer took 40 ms; the copies, all queued at start, a small part of that.
    EXPECT_LT(copy_seconds, 0.5 * consuming_seconds) << "batch " << batch;
    EXPECT_TRUE(reference::verify_elementwise(values, destination.span(), 0).passed());
  }
}

// Accumulated in double, CUB's sum is far closer than the 1e-5 the policy allows, at the seed's
// size too.
TEST(GpuReduce, SumsInDoubleAtTheSeedsSize) {
  HANDOFF_REQUIRE_GPUS(1);
  const auto& row = find_row(postproc_split_variants(), "gpu_reduce");
  for (const std::size_t count : {std::size_t{100'003}, std::size_t{10'000'000}}) {
    SCOPED_TRACE(::testing::Message() << count << " elements");
    const split_point at{count, 1, 1, device};
    const auto work = make_split_case(at);
    auto reduce = row.setup(at, device);
    reduce->poison(*work);
    ASSERT_TRUE(std::isnan(work->sum()));
    reduce->run(*work);
    const double expected = work->expected_sum();
    EXPECT_LE(std::abs(work->sum() - expected), 1e-9 * std::max(1.0, std::abs(expected)));
  }
}

TEST(DeviceFloatSum, AccumulatesInDoubleIntoDeviceOrHostMemory) {
  HANDOFF_REQUIRE_GPUS(1);
  // Next to 1e8 a float accumulator drops every 1; in double the sum is exactly the ones' count.
  constexpr std::size_t count = 1 << 20;
  std::vector<float> values(count, 1.0f);
  values.front() = 1e8f;
  values.back() = -1e8f;
  const device_buffer<float> device_values(count);
  HANDOFF_CUDA_CHECK(cudaMemcpy(device_values.data(), values.data(), count * sizeof(float),
                                cudaMemcpyHostToDevice));
  const device_float_sum sum(count);
  const handoff::stream stream;
  const device_buffer<double> on_device(1);
  pinned_buffer<double> on_host(1);
  sum.enqueue(device_values.data(), on_device.data(), stream.get());
  sum.enqueue(device_values.data(), on_host.data(), stream.get());
  stream.synchronize();
  double from_device = 0.0;
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(&from_device, on_device.data(), sizeof(double), cudaMemcpyDeviceToHost));
  EXPECT_EQ(from_device, static_cast<double>(count - 2));
  EXPECT_EQ(*on_host.data(), static_cast<double>(count - 2));
}

}  // namespace
}  // namespace handoff::patterns::postproc_split

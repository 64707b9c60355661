// postproc_split on the device: c computed by the vector add kernel, then every variant's sum
// checked against the double-precision oracle at small and uneven sizes, and CUB's reduction
// shown to accumulate in double.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/float_sum_in_double.hpp"
#include "handoff/patterns/postproc_split/chunk_sum.hpp"
#include "handoff/patterns/postproc_split/gpu_reduce.hpp"
#include "handoff/patterns/postproc_split/split_variants.hpp"
#include "handoff/patterns/postproc_split/summing_worker.hpp"
#include "handoff/patterns/process/worker_role.hpp"
#include "handoff/reference/compensated_sum.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"
#include "handoff/reference/verify.hpp"
#include "handoff/stream.hpp"
#include "handoff/vector_add.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::patterns::postproc_split {
namespace {

using namespace std::chrono_literals;

HANDOFF_WORKER_ROLE(summing_worker_role, run_summing_worker);

// c = a + b on the device from seeded inputs, and the same c computed on the host.
struct device_c {
  std::vector<float> host;
  device_buffer<float> device;
};

device_c vector_add_on_device(std::size_t count, std::uint64_t seed) {
  std::vector<float> a(count), b(count);
  reference::fill_seeded_nonzero(a, seed);
  reference::fill_seeded_nonzero(b, seed + 1);
  device_c c{std::vector<float>(count), device_buffer<float>(count)};
  reference::vector_add(a, b, c.host);
  if (count == 0) return c;
  const device_buffer<float> device_a(count), device_b(count);
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(device_a.data(), a.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(device_b.data(), b.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  const handoff::stream stream;
  launch_vector_add(device_a.data(), device_b.data(), c.device.data(), count, stream.get());
  stream.synchronize();
  return c;
}

struct split_case {
  std::size_t count;
  std::size_t chunks;
  std::size_t workers;
};

class DeviceSplit : public ::testing::TestWithParam<split_variant> {};

TEST_P(DeviceSplit, VerifiesAtSmallAndUnevenSizes) {
  HANDOFF_REQUIRE_GPUS(1);
  const std::vector<split_case> cases{
      {0, 2, 2},
      {1, 1, 2},
      {1027, 3, 4},
      {100'003, 7, 4},
      {(1 << 20) + 5, 10, 3},
      // 40 chunks for 2 workers: overlapped has more pieces than its copy window (8) holds, so
      // copies are queued as the pieces are awaited.
      {(1 << 22) + 3, 40, 2}};
  for (const auto& [count, chunks, workers] : cases) {
    SCOPED_TRACE(::testing::Message()
                 << count << " elements, " << chunks << " chunks, " << workers << " workers");
    const auto c = vector_add_on_device(count, 0xD0 + count);
    auto split = make_pooled_split(GetParam(), {compute_target::device, c.device.span()},
                                   {.workers = workers,
                                    .chunks = chunks,
                                    .patience = 30s,
                                    .name = "pps-gpu-test-" + std::to_string(::getpid())});
    for (int batch = 0; batch < 2; ++batch) {
      split->poison();
      stage_times stages;
      const double sum = split->run(stages);
      const auto verdict = reference::verify_reduction(reference::compensated_sum(c.host), sum);
      EXPECT_TRUE(verdict.passed()) << verdict.describe();
      ASSERT_EQ(split->partials().size(), chunks);
      for (std::size_t index = 0; index < chunks; ++index) {
        const auto piece = split->chunks()[index];
        // overlapped adds its pieces' sums, so only the last bits may differ.
        const double whole = sum_chunk(std::span(c.host).subspan(piece.offset, piece.count));
        EXPECT_NEAR(split->partials()[index], whole, 1e-12 * std::max(1.0, std::abs(whole)))
            << "chunk " << index;
      }
    }
    split->pool().shutdown();
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, DeviceSplit, ::testing::ValuesIn(all_split_variants),
                         [](const auto& variant) {
                           return std::string(split_variant_name(variant.param));
                         });

TEST(GpuReduce, VerifiesAtEdgeUnevenAndTheSeedsSizes) {
  HANDOFF_REQUIRE_GPUS(1);
  for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{1027},
                                  std::size_t{100'003}, std::size_t{10'000'000}}) {
    SCOPED_TRACE(::testing::Message() << count << " elements");
    const auto c = vector_add_on_device(count, 0xE0 + count);
    gpu_reduce reduce(c.device.span());
    for (int batch = 0; batch < 2; ++batch) {
      reduce.poison();
      ASSERT_TRUE(std::isnan(reduce.result()));
      const double sum = reduce.run();
      EXPECT_EQ(sum, reduce.result());
      const double expected = reference::compensated_sum(c.host);
      const auto verdict = reference::verify_reduction(expected, sum);
      EXPECT_TRUE(verdict.passed()) << verdict.describe();
      // Accumulated in double, it is far closer than the 1e-5 the policy allows.
      EXPECT_LE(std::abs(sum - expected), 1e-9 * std::max(1.0, std::abs(expected)));
    }
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

// The CUB sums of squares on the device, one dataset and many at once, against the
// double-precision reference, on poisoned outputs.

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/patterns/independent_tasks/seed_task.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/stream.hpp"
#include "handoff/sum_of_squares.hpp"
#include "support/gpu_requirement.hpp"
#include "task_support.hpp"

namespace handoff::patterns::independent_tasks {
namespace {

using testing_support::make_batch;
using testing_support::uneven_sizes;

TEST(DeviceSumOfSquares, OneDatasetAtEverySize) {
  HANDOFF_REQUIRE_GPUS(1);
  const stream on;
  for (const std::size_t size : {0u, 1u, 7u, 1027u, 4096u, 10'000u, 100'000u, 1'000'003u}) {
    const auto made = make_batch({size}, 60 + size);
    const auto values = made.batch.dataset(0);
    device_buffer<float> device_values(size);
    device_buffer<float> sum(1);
    const std::size_t temp_bytes = sum_of_squares_temp_bytes(size);
    device_buffer<std::byte> temp(temp_bytes);
    HANDOFF_CUDA_CHECK(cudaMemcpyAsync(device_values.data(), values.data(), values.size_bytes(),
                                       cudaMemcpyHostToDevice, on.get()));
    HANDOFF_CUDA_CHECK(
        cudaMemsetAsync(sum.data(), reference::poison_byte, sizeof(float), on.get()));
    launch_sum_of_squares(device_values.data(), size, sum.data(), temp.data(), temp_bytes,
                          on.get());
    std::vector<float> actual(1);
    HANDOFF_CUDA_CHECK(cudaMemcpyAsync(actual.data(), sum.data(), sizeof(float),
                                       cudaMemcpyDeviceToHost, on.get()));
    on.synchronize();
    const auto verdict = reference::verify_reductions(made.expected, actual);
    EXPECT_TRUE(verdict.passed()) << size << ": " << verdict.describe();
  }
}

TEST(DeviceSumOfSquares, SegmentedOverUnevenAndEmptySegments) {
  HANDOFF_REQUIRE_GPUS(1);
  const auto made = make_batch(uneven_sizes);
  const auto values = made.batch.values();
  const auto offsets = made.batch.offsets();
  const stream on;
  device_buffer<float> device_values(values.size());
  device_buffer<std::int64_t> device_offsets(offsets.size());
  device_buffer<float> sums(made.batch.size());
  const std::size_t longest = *std::max_element(uneven_sizes.begin(), uneven_sizes.end());
  const std::size_t temp_bytes = segmented_sum_of_squares_temp_bytes(made.batch.size(), longest);
  device_buffer<std::byte> temp(temp_bytes);
  prepare_segmented_sum_of_squares_temp(temp.data(), temp_bytes, on.get());
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(device_values.data(), values.data(), values.size_bytes(),
                                     cudaMemcpyHostToDevice, on.get()));
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(device_offsets.data(), offsets.data(), offsets.size_bytes(),
                                     cudaMemcpyHostToDevice, on.get()));
  HANDOFF_CUDA_CHECK(
      cudaMemsetAsync(sums.data(), reference::poison_byte, sums.size_bytes(), on.get()));
  launch_segmented_sum_of_squares(device_values.data(), device_offsets.data(), made.batch.size(),
                                  longest, sums.data(), temp.data(), temp_bytes, on.get());
  std::vector<float> actual(made.batch.size());
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(actual.data(), sums.data(), sums.size_bytes(),
                                     cudaMemcpyDeviceToHost, on.get()));
  on.synchronize();
  const auto verdict = reference::verify_reductions(made.expected, actual);
  EXPECT_TRUE(verdict.passed()) << verdict.describe();
  EXPECT_EQ(verdict.checked, uneven_sizes.size());
}

TEST(DeviceSumOfSquares, SegmentedSpreadsLongSegmentsOverManyBlocks) {
  HANDOFF_REQUIRE_GPUS(1);
  const std::vector<std::size_t> long_sizes = {100'000, 3, 70'001, 0, 2048, 2049};
  const auto made = make_batch(long_sizes);
  const auto values = made.batch.values();
  const auto offsets = made.batch.offsets();
  const stream on;
  device_buffer<float> device_values(values.size());
  device_buffer<std::int64_t> device_offsets(offsets.size());
  device_buffer<float> sums(made.batch.size());
  const std::size_t temp_bytes = segmented_sum_of_squares_temp_bytes(made.batch.size(), 100'000);
  device_buffer<std::byte> temp(temp_bytes);
  prepare_segmented_sum_of_squares_temp(temp.data(), temp_bytes, on.get());
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(device_values.data(), values.data(), values.size_bytes(),
                                     cudaMemcpyHostToDevice, on.get()));
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(device_offsets.data(), offsets.data(), offsets.size_bytes(),
                                     cudaMemcpyHostToDevice, on.get()));
  // Twice: each launch must leave its counts as the next one needs them.
  for (int launch = 0; launch < 2; ++launch) {
    HANDOFF_CUDA_CHECK(
        cudaMemsetAsync(sums.data(), reference::poison_byte, sums.size_bytes(), on.get()));
    launch_segmented_sum_of_squares(device_values.data(), device_offsets.data(), made.batch.size(),
                                    100'000, sums.data(), temp.data(), temp_bytes, on.get());
    std::vector<float> actual(made.batch.size());
    HANDOFF_CUDA_CHECK(cudaMemcpyAsync(actual.data(), sums.data(), sums.size_bytes(),
                                       cudaMemcpyDeviceToHost, on.get()));
    on.synchronize();
    const auto verdict = reference::verify_reductions(made.expected, actual);
    EXPECT_TRUE(verdict.passed()) << "launch " << launch << ": " << verdict.describe();
    EXPECT_EQ(verdict.checked, long_sizes.size());
  }
}

// 16384 values is the most one block reduces alone; one more takes the tiled kernel. Both sides of
// that line, twice each, as one batch and as the longest of a batch.
TEST(DeviceSumOfSquares, SegmentedOnBothSidesOfTheOneBlockLimit) {
  HANDOFF_REQUIRE_GPUS(1);
  for (const std::size_t longest : {std::size_t{16'384}, std::size_t{16'385}}) {
    const std::vector<std::size_t> sizes = {longest, 1, 0, longest - 1000, 1025};
    const auto made = make_batch(sizes, longest);
    const auto values = made.batch.values();
    const auto offsets = made.batch.offsets();
    const stream on;
    device_buffer<float> device_values(values.size());
    device_buffer<std::int64_t> device_offsets(offsets.size());
    device_buffer<float> sums(made.batch.size());
    const std::size_t temp_bytes = segmented_sum_of_squares_temp_bytes(made.batch.size(), longest);
    device_buffer<std::byte> temp(temp_bytes);
    prepare_segmented_sum_of_squares_temp(temp.data(), temp_bytes, on.get());
    HANDOFF_CUDA_CHECK(cudaMemcpyAsync(device_values.data(), values.data(), values.size_bytes(),
                                       cudaMemcpyHostToDevice, on.get()));
    HANDOFF_CUDA_CHECK(cudaMemcpyAsync(device_offsets.data(), offsets.data(), offsets.size_bytes(),
                                       cudaMemcpyHostToDevice, on.get()));
    for (int launch = 0; launch < 2; ++launch) {
      HANDOFF_CUDA_CHECK(
          cudaMemsetAsync(sums.data(), reference::poison_byte, sums.size_bytes(), on.get()));
      launch_segmented_sum_of_squares(device_values.data(), device_offsets.data(),
                                      made.batch.size(), longest, sums.data(), temp.data(),
                                      temp_bytes, on.get());
      std::vector<float> actual(made.batch.size());
      HANDOFF_CUDA_CHECK(cudaMemcpyAsync(actual.data(), sums.data(), sums.size_bytes(),
                                         cudaMemcpyDeviceToHost, on.get()));
      on.synchronize();
      const auto verdict = reference::verify_reductions(made.expected, actual);
      EXPECT_TRUE(verdict.passed())
          << longest << ", launch " << launch << ": " << verdict.describe();
      EXPECT_EQ(verdict.checked, sizes.size());
    }
  }
}

// Checked on the host before anything is launched, so these need no GPU.
TEST(SegmentedSumOfSquaresStorage, HoldsOnePartialPerTileAndRefusesLess) {
  const std::size_t ten_tiles_of_2048 = segmented_sum_of_squares_temp_bytes(1, 10 * 2048);
  // Ten partials (40 bytes, rounded to 48) and one count.
  EXPECT_EQ(ten_tiles_of_2048, 48 + sizeof(unsigned));
  // 500 partials (2000 bytes, rounded to 2000) and 100 counts.
  EXPECT_EQ(segmented_sum_of_squares_temp_bytes(100, 10'000), 2000 + 100 * sizeof(unsigned));
  EXPECT_EQ(segmented_sum_of_squares_temp_bytes(3, 0), 16 + 3 * sizeof(unsigned));
  EXPECT_THROW(launch_segmented_sum_of_squares(nullptr, nullptr, 1, 10 * 2048, nullptr, nullptr,
                                               ten_tiles_of_2048 - 1, cudaStreamLegacy),
               std::invalid_argument);
  EXPECT_THROW(segmented_sum_of_squares_temp_bytes(std::size_t{1} << 40, 4096),
               std::invalid_argument);
}

TEST(DeviceSumOfSquares, TooLittleTemporaryStorageIsAnError) {
  HANDOFF_REQUIRE_GPUS(1);
  const std::size_t count = 100'000;
  device_buffer<float> values(count);
  device_buffer<float> sum(1);
  const std::size_t needed = sum_of_squares_temp_bytes(count);
  ASSERT_GT(needed, 1u);
  device_buffer<std::byte> temp(1);
  EXPECT_THROW(
      launch_sum_of_squares(values.data(), count, sum.data(), temp.data(), 1, cudaStreamLegacy),
      cuda_error);
}

TEST(SeedGpuTask, OnTheDeviceMatchesTheReferenceAndReportsItsStages) {
  HANDOFF_REQUIRE_GPUS(1);
  const auto made = make_batch(uneven_sizes);
  prepare_compute_target(compute_target::device);
  std::vector<float> sums;
  stage_times stages;
  for (std::size_t index = 0; index < made.batch.size(); ++index)
    sums.push_back(seed_gpu_task(compute_target::device, made.batch.dataset(index), stages));
  const auto verdict = reference::verify_reductions(made.expected, sums);
  EXPECT_TRUE(verdict.passed()) << verdict.describe();
  EXPECT_GT(stages.h2d, 0.0);
  EXPECT_GT(stages.kernel, 0.0);
  EXPECT_GT(stages.d2h, 0.0);
}

}  // namespace
}  // namespace handoff::patterns::independent_tasks

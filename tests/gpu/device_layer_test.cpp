#include <gtest/gtest.h>

#include <regex>
#include <utility>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/device_discovery.hpp"
#include "handoff/stream.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff {
namespace {

TEST(DeviceDiscovery, CountsAndDescribesEveryGpu) {
  HANDOFF_REQUIRE_GPUS(1);
  const auto gpus = gpu_count();
  ASSERT_GE(gpus.count, 1);
  EXPECT_TRUE(gpus.reason.empty());
  for (int ordinal = 0; ordinal < gpus.count; ++ordinal) {
    const auto gpu = describe_gpu(ordinal);
    EXPECT_FALSE(gpu.name.empty());
    EXPECT_EQ(gpu.uuid.rfind("GPU-", 0), 0u) << gpu.uuid;
    EXPECT_EQ(gpu.uuid.size(), 40u) << gpu.uuid;
    EXPECT_GT(gpu.multiprocessors, 0);
    EXPECT_GT(gpu.memory_bytes, 0u);
    EXPECT_GT(gpu.sm_clock_max_khz, 0);
    EXPECT_TRUE(gpu.pcie_link == "unknown" ||
                std::regex_match(gpu.pcie_link, std::regex("gen[1-6] x[0-9]+")))
        << gpu.pcie_link;
  }
  const auto matrix = peer_access_matrix(gpus.count);
  ASSERT_EQ(matrix.size(), static_cast<std::size_t>(gpus.count));
  for (int i = 0; i < gpus.count; ++i)
    EXPECT_FALSE(matrix[i][i]);
}

TEST(DeviceBuffer, AllocatesMovesAndRoundTrips) {
  HANDOFF_REQUIRE_GPUS(1);
  device_buffer<int> buffer(1000);
  ASSERT_NE(buffer.data(), nullptr);
  EXPECT_EQ(buffer.size_bytes(), 4000u);
  std::vector<int> values(1000);
  for (int i = 0; i < 1000; ++i)
    values[i] = 3 * i + 1;
  HANDOFF_CUDA_CHECK(cudaMemcpy(buffer.data(), values.data(), 4000, cudaMemcpyHostToDevice));
  int* const raw = buffer.data();
  device_buffer<int> moved = std::move(buffer);
  EXPECT_EQ(moved.data(), raw);
  EXPECT_EQ(buffer.data(), nullptr);  // NOLINT(bugprone-use-after-move): the move contract
  std::vector<int> back(1000, -1);
  HANDOFF_CUDA_CHECK(cudaMemcpy(back.data(), moved.data(), 4000, cudaMemcpyDeviceToHost));
  EXPECT_EQ(back, values);
}

TEST(DeviceBuffer, ZeroLengthAllocatesNothing) {
  HANDOFF_REQUIRE_GPUS(1);
  device_buffer<float> empty(0);
  EXPECT_EQ(empty.data(), nullptr);
  pinned_buffer<float> empty_pinned(0);
  EXPECT_TRUE(empty_pinned.span().empty());
}

TEST(DeviceBuffer, ImpossibleAllocationThrowsANamedError) {
  HANDOFF_REQUIRE_GPUS(1);
  try {
    device_buffer<char> too_large(std::size_t{1} << 60);
    FAIL() << "allocating 2^60 bytes succeeded";
  } catch (const cuda_error& error) {
    EXPECT_NE(std::string(error.what()).find("cudaErrorMemoryAllocation"), std::string::npos)
        << error.what();
  }
  // The failure must not be sticky: the next call still works.
  EXPECT_NO_THROW(device_buffer<char>(16));
}

TEST(PinnedBuffer, IsPageLockedHostMemory) {
  HANDOFF_REQUIRE_GPUS(1);
  pinned_buffer<float> pinned(256);
  cudaPointerAttributes attributes{};
  HANDOFF_CUDA_CHECK(cudaPointerGetAttributes(&attributes, pinned.data()));
  EXPECT_EQ(attributes.type, cudaMemoryTypeHost);
  pinned.span()[255] = 2.5f;
  EXPECT_EQ(pinned.data()[255], 2.5f);
}

TEST(StreamAndEvent, EventsMeasureElapsedTimeOnAStream) {
  HANDOFF_REQUIRE_GPUS(1);
  const stream on;
  const event start;
  const event stop;
  device_buffer<char> buffer(64 << 20);
  start.record(on.get());
  HANDOFF_CUDA_CHECK(cudaMemsetAsync(buffer.data(), 1, buffer.size_bytes(), on.get()));
  stop.record(on.get());
  const float milliseconds = elapsed_milliseconds(start, stop);
  EXPECT_GT(milliseconds, 0.0f);
  EXPECT_LT(milliseconds, 10'000.0f);
  on.synchronize();
}

}  // namespace
}  // namespace handoff

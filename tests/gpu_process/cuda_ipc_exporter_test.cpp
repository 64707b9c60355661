// What legacy CUDA IPC cannot share is refused before any handle leaves the process, with a
// message that names the kind of memory. One process suffices: nothing is imported.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/stream.hpp"
#include "handoff/transport/ipc/cuda_ipc.hpp"
#include "handoff/transport/ipc/vmm_shareable.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::patterns {

using transport::ipc_exporter;

namespace {

constexpr std::size_t mebibyte = std::size_t{1} << 20;

// The message of the ipc_unsupported_memory that exporting pointer throws, or "" when none.
std::string refusal_of(ipc_exporter& exporter, const void* pointer, std::size_t bytes,
                       cudaStream_t stream) {
  try {
    exporter.export_range(pointer, bytes, stream);
  } catch (const transport::ipc_unsupported_memory& error) {
    return error.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CudaIpcExporter, RefusesStreamOrderedPoolMemory) {
  HANDOFF_REQUIRE_GPUS(1);
  int pools_supported = 0;
  HANDOFF_CUDA_CHECK(cudaDeviceGetAttribute(&pools_supported, cudaDevAttrMemoryPoolsSupported, 0));
  if (!pools_supported) GTEST_SKIP() << "device 0 does not support cudaMallocAsync";
  const stream on;
  void* pooled = nullptr;
  HANDOFF_CUDA_CHECK(cudaMallocAsync(&pooled, mebibyte, on.get()));
  on.synchronize();
  ipc_exporter exporter(0);
  const std::string refusal = refusal_of(exporter, pooled, mebibyte, on.get());
  HANDOFF_CUDA_CHECK(cudaFreeAsync(pooled, on.get()));
  on.synchronize();
  ASSERT_FALSE(refusal.empty()) << "cudaMallocAsync memory was exported through legacy IPC";
  EXPECT_TRUE(contains(refusal, "cudaMallocAsync")) << refusal;
  EXPECT_EQ(exporter.cached_handles(), 0u);
}

TEST(CudaIpcExporter, RefusesManagedPinnedAndPlainHostMemory) {
  HANDOFF_REQUIRE_GPUS(1);
  const stream on;
  ipc_exporter exporter(0);

  void* managed = nullptr;
  HANDOFF_CUDA_CHECK(cudaMallocManaged(&managed, mebibyte));
  const std::string managed_refusal = refusal_of(exporter, managed, mebibyte, on.get());
  HANDOFF_CUDA_CHECK(cudaFree(managed));
  EXPECT_TRUE(contains(managed_refusal, "managed memory")) << managed_refusal;

  const pinned_buffer<float> pinned(1024);
  const std::string pinned_refusal =
      refusal_of(exporter, pinned.data(), pinned.size_bytes(), on.get());
  EXPECT_TRUE(contains(pinned_refusal, "pinned host memory")) << pinned_refusal;

  const std::vector<float> plain(1024, 1.0f);
  const std::string plain_refusal =
      refusal_of(exporter, plain.data(), plain.size() * sizeof(float), on.get());
  EXPECT_TRUE(contains(plain_refusal, "cannot export")) << plain_refusal;
  EXPECT_EQ(exporter.cached_handles(), 0u);
}

TEST(CudaIpcExporter, RefusesARangePastTheEndOfItsAllocation) {
  HANDOFF_REQUIRE_GPUS(1);
  const stream on;
  const device_buffer<std::byte> buffer(mebibyte);
  ipc_exporter exporter(0);
  const std::string refusal =
      refusal_of(exporter, buffer.data() + mebibyte / 2, mebibyte, on.get());
  EXPECT_TRUE(contains(refusal, "past the end")) << refusal;
  // The last byte alone is inside, and is exported from the allocation's base.
  const auto record = exporter.export_range(buffer.data() + mebibyte - 1, 1, on.get());
  EXPECT_EQ(record.offset, mebibyte - 1);
  EXPECT_EQ(record.bytes, 1u);
}

TEST(CudaIpcExporter, RefusesCuMemMemoryAndPointsToDescriptors) {
  HANDOFF_REQUIRE_GPUS(1);
  const stream on;
  std::optional<transport::vmm_allocation> allocation;
  try {
    allocation.emplace(transport::vmm_allocation::create(0, mebibyte));
  } catch (const transport::ipc_unsupported_device& error) {
    GTEST_SKIP() << error.what();
  }
  ipc_exporter exporter(0);
  const std::string refusal =
      refusal_of(exporter, allocation->data(), allocation->bytes(), on.get());
  EXPECT_TRUE(contains(refusal, "not legacy-IPC capable")) << refusal;
}

}  // namespace
}  // namespace handoff::patterns

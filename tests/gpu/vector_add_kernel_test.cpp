#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"
#include "handoff/reference/verify.hpp"
#include "handoff/stream.hpp"
#include "handoff/vector_add.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff {
namespace {

// Runs the kernel on [offset, offset + count) of poisoned device buffers and checks every element
// against the reference: the sizes cover the empty case, one element, both sides of a block, and
// a size whose float4 body leaves a tail; the offset forces the unaligned path.
void check_vector_add(std::size_t count, std::size_t offset) {
  std::vector<float> a(count), b(count), expected(count), actual(count);
  reference::fill_seeded_nonzero(a, 100 + count);
  reference::fill_seeded_nonzero(b, 200 + count);
  reference::vector_add(a, b, expected);
  const std::size_t allocated = count + offset + 1;
  device_buffer<float> device_a(allocated), device_b(allocated), device_out(allocated);
  const stream on;
  HANDOFF_CUDA_CHECK(cudaMemsetAsync(device_out.data(), reference::poison_byte,
                                     device_out.size_bytes(), on.get()));
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(device_a.data() + offset, a.data(), count * sizeof(float),
                                     cudaMemcpyHostToDevice, on.get()));
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(device_b.data() + offset, b.data(), count * sizeof(float),
                                     cudaMemcpyHostToDevice, on.get()));
  launch_vector_add(device_a.data() + offset, device_b.data() + offset, device_out.data() + offset,
                    count, on.get());
  std::vector<float> whole(allocated);
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(whole.data(), device_out.data(), device_out.size_bytes(),
                                     cudaMemcpyDeviceToHost, on.get()));
  on.synchronize();
  std::copy_n(whole.begin() + static_cast<std::ptrdiff_t>(offset), count, actual.begin());
  const auto result = reference::verify_elementwise(expected, actual);
  EXPECT_TRUE(result.passed()) << "count " << count << " offset " << offset << ": "
                               << result.describe();
  // Nothing beyond the range may be written: the element after it keeps its poison.
  EXPECT_TRUE(std::isnan(whole[offset + count])) << "count " << count << " offset " << offset;
}

class VectorAddKernel : public ::testing::TestWithParam<std::size_t> {};

TEST_P(VectorAddKernel, MatchesReferenceAligned) {
  HANDOFF_REQUIRE_GPUS(1);
  check_vector_add(GetParam(), 0);
}

TEST_P(VectorAddKernel, MatchesReferenceUnaligned) {
  HANDOFF_REQUIRE_GPUS(1);
  check_vector_add(GetParam(), 1);
}

INSTANTIATE_TEST_SUITE_P(EdgeSizes, VectorAddKernel,
                         ::testing::Values(0u, 1u, 1023u, 1025u, (1u << 20) + 3u));

}  // namespace
}  // namespace handoff

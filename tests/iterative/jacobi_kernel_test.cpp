// The Jacobi step kernel and the update-norm reduction against the host, at edge sizes and with
// pointers that force the scalar path.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/jacobi.hpp"
#include "handoff/patterns/iterative/jacobi_host_variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/jacobi.hpp"
#include "handoff/reference/verify.hpp"
#include "handoff/stream.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff {
namespace {

std::vector<float> seeded(std::size_t count, std::uint64_t seed) {
  std::vector<float> values(count);
  reference::fill_seeded_nonzero(values, seed);
  return values;
}

device_buffer<float> uploaded(const std::vector<float>& host) {
  device_buffer<float> buffer(host.size());
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(buffer.data(), host.data(), buffer.size_bytes(), cudaMemcpyHostToDevice));
  return buffer;
}

std::vector<float> downloaded(const float* device, std::size_t count) {
  std::vector<float> host(count);
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(host.data(), device, count * sizeof(float), cudaMemcpyDeviceToHost));
  return host;
}

// offset 0 takes the 16-byte path; offset 1 misaligns every pointer and takes the scalar one.
struct step_case {
  std::size_t count;
  std::size_t offset;
};

class JacobiStepKernel : public ::testing::TestWithParam<step_case> {};

// IEEE additions and division in the same order on both sides: the bits must agree.
TEST_P(JacobiStepKernel, GivesTheHostStepsBits) {
  HANDOFF_REQUIRE_GPUS(1);
  const auto [count, offset] = GetParam();
  const auto b = seeded(count + offset, 61);
  const auto x = seeded(count + offset, 62);
  const auto device_b = uploaded(b);
  const auto device_x = uploaded(x);
  const device_buffer<float> device_x_new(count + offset);
  const stream on;
  HANDOFF_CUDA_CHECK(cudaMemsetAsync(device_x_new.data(), reference::poison_byte,
                                     device_x_new.size_bytes(), on.get()));
  const float diagonal = static_cast<float>(reference::jacobi_default_diagonal);
  launch_jacobi_1d_step(device_b.data() + offset, device_x.data() + offset,
                        device_x_new.data() + offset, count, diagonal, on.get());
  on.synchronize();
  std::vector<float> expected(count);
  patterns::iterative::jacobi_step_on_host(std::span(b).subspan(offset),
                                           std::span(x).subspan(offset), expected, diagonal);
  const auto result =
      reference::verify_elementwise(expected, downloaded(device_x_new.data() + offset, count), 0);
  EXPECT_TRUE(result.passed()) << count << " unknowns at offset " << offset << ": "
                               << result.describe();
}

INSTANTIATE_TEST_SUITE_P(Sizes, JacobiStepKernel,
                         ::testing::Values(step_case{1, 0}, step_case{2, 0}, step_case{3, 0},
                                           step_case{4, 0}, step_case{5, 0}, step_case{1027, 0},
                                           step_case{1027, 1}, step_case{(1u << 20) + 3, 0},
                                           step_case{(1u << 20) + 3, 1}));

class UpdateNorm : public ::testing::TestWithParam<std::size_t> {};

TEST_P(UpdateNorm, MatchesTheHostsNorm) {
  HANDOFF_REQUIRE_GPUS(1);
  const auto x_new = seeded(GetParam(), 71);
  const auto x_old = seeded(GetParam(), 72);
  const auto device_new = uploaded(x_new);
  const auto device_old = uploaded(x_old);
  const device_buffer<double> norm(1);
  const update_norm_reducer reducer(GetParam());
  const stream on;
  HANDOFF_CUDA_CHECK(
      cudaMemsetAsync(norm.data(), reference::poison_byte, sizeof(double), on.get()));
  reducer.enqueue(device_new.data(), device_old.data(), norm.data(), on.get());
  double device = 0.0;
  HANDOFF_CUDA_CHECK(
      cudaMemcpyAsync(&device, norm.data(), sizeof(double), cudaMemcpyDeviceToHost, on.get()));
  on.synchronize();
  const double host = reference::update_norm_squared(x_new, x_old);
  const auto result = reference::verify_reduction(host, device);
  EXPECT_TRUE(result.passed()) << GetParam() << " unknowns: " << result.describe();
}

INSTANTIATE_TEST_SUITE_P(Sizes, UpdateNorm, ::testing::Values(1u, 1027u, (1u << 20) + 3));

}  // namespace
}  // namespace handoff

#include "split_inputs.hpp"

#include <memory>
#include <stdexcept>

#include "../harness/latest_cache.hpp"
#include "handoff/reference/compensated_sum.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"
#include "handoff/reference/verify.hpp"
#include "handoff/stream.hpp"
#include "handoff/vector_add.hpp"

namespace handoff::bench {
namespace {

constexpr std::uint64_t seed_a = 0x5011A;
constexpr std::uint64_t seed_b = 0x5011B;

device_buffer<float> add_on_device(const std::vector<float>& a, const std::vector<float>& b,
                                   const std::vector<float>& expected) {
  const device_buffer<float> device_a(a.size()), device_b(b.size());
  device_buffer<float> device_c(a.size());
  if (a.empty()) return device_c;
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(device_a.data(), a.data(), device_a.size_bytes(), cudaMemcpyHostToDevice));
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(device_b.data(), b.data(), device_b.size_bytes(), cudaMemcpyHostToDevice));
  const handoff::stream stream;
  launch_vector_add(device_a.data(), device_b.data(), device_c.data(), a.size(), stream.get());
  stream.synchronize();
  std::vector<float> downloaded(a.size());
  HANDOFF_CUDA_CHECK(cudaMemcpy(downloaded.data(), device_c.data(), device_c.size_bytes(),
                                cudaMemcpyDeviceToHost));
  const auto verdict = reference::verify_elementwise(expected, downloaded);
  if (!verdict.passed()) {
    throw std::runtime_error("postproc_split: the device's c = a + b is wrong: " +
                             verdict.describe());
  }
  return device_c;
}

}  // namespace

const split_inputs& split_inputs_for(std::size_t count, bool on_device) {
  static latest_cache<std::pair<std::size_t, bool>, split_inputs> cache;
  return cache.get({count, on_device}, [&] {
    auto fresh = std::make_unique<split_inputs>();
    fresh->count = count;
    fresh->on_device = on_device;
    std::vector<float> a(count), b(count);
    reference::fill_seeded_nonzero(a, seed_a);
    reference::fill_seeded_nonzero(b, seed_b);
    fresh->c.resize(count);
    reference::vector_add(a, b, fresh->c);
    fresh->expected_sum = reference::compensated_sum(fresh->c);
    if (on_device) fresh->device_c = add_on_device(a, b, fresh->c);
    return fresh;
  });
}

}  // namespace handoff::bench

#include "handoff/patterns/workloads/seed_vector_add.hpp"

#include <stdexcept>

#include "handoff/cuda_check.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/reference/vector_add.hpp"
#include "handoff/vector_add.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::patterns {
namespace {

void on_device(std::span<const float> a, std::span<const float> b, std::span<float> out,
               stage_times& stages) {
  auto start = wall_clock::now();
  device_buffer<float> device_a(a.size()), device_b(b.size()), device_out(out.size());
  HANDOFF_CUDA_CHECK(cudaMemcpy(device_a.data(), a.data(), a.size_bytes(), cudaMemcpyDefault));
  HANDOFF_CUDA_CHECK(cudaMemcpy(device_b.data(), b.data(), b.size_bytes(), cudaMemcpyDefault));
  stages.h2d += seconds_since(start);

  start = wall_clock::now();
  launch_vector_add(device_a.data(), device_b.data(), device_out.data(), out.size(),
                    cudaStreamLegacy);
  HANDOFF_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
  stages.kernel += seconds_since(start);

  start = wall_clock::now();
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(out.data(), device_out.data(), out.size_bytes(), cudaMemcpyDefault));
  device_a = {};
  device_b = {};
  device_out = {};
  stages.d2h += seconds_since(start);
}

}  // namespace

void seed_vector_add(compute_target target, std::span<const float> a, std::span<const float> b,
                     std::span<float> out, stage_times& stages) {
  if (a.size() != b.size() || a.size() != out.size()) {
    throw std::invalid_argument("seed_vector_add: a, b and out must have the same length");
  }
  if (target == compute_target::device) {
    on_device(a, b, out, stages);
    return;
  }
  const auto start = wall_clock::now();
  reference::vector_add(a, b, out);
  stages.kernel += seconds_since(start);
}

}  // namespace handoff::patterns

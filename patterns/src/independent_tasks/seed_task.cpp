#include "handoff/patterns/independent_tasks/seed_task.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstddef>

#include "handoff/cuda_check.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/fork_guard.hpp"
#include "handoff/patterns/independent_tasks/cpu_variants.hpp"
#include "handoff/sum_of_squares.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::patterns::independent_tasks {
namespace {

float on_device(std::span<const float> dataset, stage_times& stages) {
  auto start = wall_clock::now();
  device_buffer<float> values(dataset.size());
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(values.data(), dataset.data(), dataset.size_bytes(), cudaMemcpyHostToDevice));
  stages.h2d += seconds_since(start);

  start = wall_clock::now();
  const std::size_t temp_bytes = sum_of_squares_temp_bytes(dataset.size());
  device_buffer<std::byte> temp(temp_bytes);
  device_buffer<float> sum(1);
  launch_sum_of_squares(values.data(), values.size(), sum.data(), temp.data(), temp_bytes,
                        cudaStreamLegacy);
  HANDOFF_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
  stages.kernel += seconds_since(start);

  start = wall_clock::now();
  float result = 0.0f;
  HANDOFF_CUDA_CHECK(cudaMemcpy(&result, sum.data(), sizeof(float), cudaMemcpyDeviceToHost));
  values = {};
  temp = {};
  sum = {};
  stages.d2h += seconds_since(start);
  return result;
}

}  // namespace

float seed_gpu_task(compute_target target, std::span<const float> dataset, stage_times& stages) {
  if (target == compute_target::device) return on_device(dataset, stages);
  const auto start = wall_clock::now();
  const float result = cpu_sum_of_squares(dataset);
  stages.kernel += seconds_since(start);
  return result;
}

void prepare_compute_target(compute_target target) {
  if (target != compute_target::device) return;
  enter_cuda();
  HANDOFF_CUDA_CHECK(cudaFree(nullptr));  // forces the context into existence
}

}  // namespace handoff::patterns::independent_tasks

#include "handoff/patterns/elementwise/extended_gpu_variants.hpp"

#include "device_workload.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::patterns::elementwise {

elementwise_gpu_transfers::elementwise_gpu_transfers(extended_problem problem)
    : problem_(std::move(problem)),
      device_(std::make_unique<device_workload>(problem_)),
      out_(problem_.output_count()) {}

elementwise_gpu_transfers::elementwise_gpu_transfers(elementwise_gpu_transfers&&) noexcept =
    default;
elementwise_gpu_transfers::~elementwise_gpu_transfers() = default;

cudaStream_t elementwise_gpu_transfers::stream() const noexcept {
  return device_->stream();
}

void elementwise_gpu_transfers::poison_output() {
  reference::poison(out_);
  device_->poison_output();
}

void elementwise_gpu_transfers::enqueue() {
  device_->mark(device_workload::before_h2d);
  device_->upload(problem_);
  device_->mark(device_workload::after_h2d);
  device_->compute();
  device_->mark(device_workload::after_kernel);
  device_->download(out_);
  device_->mark(device_workload::after_d2h);
}

std::span<const float> elementwise_gpu_transfers::result() {
  HANDOFF_CUDA_CHECK(cudaStreamSynchronize(stream()));
  return out_;
}

stage_times elementwise_gpu_transfers::last_stages() const {
  return device_->stages(true);
}

elementwise_gpu_resident::elementwise_gpu_resident(extended_problem problem)
    : problem_(std::move(problem)),
      device_(std::make_unique<device_workload>(problem_)),
      out_(problem_.output_count()) {
  device_->upload(problem_);
  HANDOFF_CUDA_CHECK(cudaStreamSynchronize(stream()));
}

elementwise_gpu_resident::elementwise_gpu_resident(elementwise_gpu_resident&&) noexcept = default;
elementwise_gpu_resident::~elementwise_gpu_resident() = default;

cudaStream_t elementwise_gpu_resident::stream() const noexcept {
  return device_->stream();
}

void elementwise_gpu_resident::poison_output() {
  device_->poison_output();
}

void elementwise_gpu_resident::enqueue() {
  device_->mark(device_workload::after_h2d);
  device_->compute();
  device_->mark(device_workload::after_kernel);
}

std::span<const float> elementwise_gpu_resident::result() {
  reference::poison(out_);
  device_->download(out_);
  HANDOFF_CUDA_CHECK(cudaStreamSynchronize(stream()));
  return out_;
}

stage_times elementwise_gpu_resident::last_stages() const {
  return device_->stages(false);
}

}  // namespace handoff::patterns::elementwise

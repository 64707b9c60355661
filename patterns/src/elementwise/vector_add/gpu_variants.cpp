#include <algorithm>

#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/patterns/elementwise/vector_add_table.hpp"
#include "handoff/patterns/elementwise/vector_add_variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/vector_add.hpp"
#include "vector_add_rows.hpp"

namespace handoff::patterns::elementwise {
namespace {

void poison_device(const device_buffer<float>& buffer, cudaStream_t stream) {
  HANDOFF_CUDA_CHECK(
      cudaMemsetAsync(buffer.data(), reference::poison_byte, buffer.size_bytes(), stream));
}

void copy_to_device(float* to, std::span<const float> from, cudaStream_t stream) {
  HANDOFF_CUDA_CHECK(
      cudaMemcpyAsync(to, from.data(), from.size_bytes(), cudaMemcpyHostToDevice, stream));
}

void copy_to_host(std::span<float> to, const float* from, cudaStream_t stream) {
  HANDOFF_CUDA_CHECK(
      cudaMemcpyAsync(to.data(), from, to.size_bytes(), cudaMemcpyDeviceToHost, stream));
}

}  // namespace

vector_add_gpu_transfers::vector_add_gpu_transfers(host_inputs inputs)
    : inputs_(checked(inputs)),
      device_a_(inputs.a.size()),
      device_b_(inputs.a.size()),
      device_out_(inputs.a.size()),
      out_(inputs.a.size()) {}

void vector_add_gpu_transfers::poison_output() {
  reference::poison(out_);
  poison_device(device_out_, stream());
  stream_.synchronize();
}

void vector_add_gpu_transfers::enqueue() {
  copy_to_device(device_a_.data(), inputs_.a, stream());
  copy_to_device(device_b_.data(), inputs_.b, stream());
  launch_vector_add(device_a_.data(), device_b_.data(), device_out_.data(), out_.size(), stream());
  copy_to_host(out_, device_out_.data(), stream());
}

std::span<const float> vector_add_gpu_transfers::result() {
  stream_.synchronize();
  return out_;
}

vector_add_gpu_transfers_pinned::vector_add_gpu_transfers_pinned(host_inputs inputs)
    : a_(checked(inputs).a.size()),
      b_(inputs.a.size()),
      out_(inputs.a.size()),
      device_a_(inputs.a.size()),
      device_b_(inputs.a.size()),
      device_out_(inputs.a.size()) {
  std::ranges::copy(inputs.a, a_.data());
  std::ranges::copy(inputs.b, b_.data());
}

void vector_add_gpu_transfers_pinned::poison_output() {
  reference::poison(out_.span());
  poison_device(device_out_, stream());
  stream_.synchronize();
}

void vector_add_gpu_transfers_pinned::enqueue() {
  copy_to_device(device_a_.data(), a_.span(), stream());
  copy_to_device(device_b_.data(), b_.span(), stream());
  launch_vector_add(device_a_.data(), device_b_.data(), device_out_.data(), out_.size(), stream());
  copy_to_host(out_.span(), device_out_.data(), stream());
}

std::span<const float> vector_add_gpu_transfers_pinned::result() {
  stream_.synchronize();
  return out_.span();
}

vector_add_gpu_resident::vector_add_gpu_resident(host_inputs inputs)
    : device_a_(checked(inputs).a.size()),
      device_b_(inputs.a.size()),
      device_out_(inputs.a.size()),
      out_(inputs.a.size()) {
  copy_to_device(device_a_.data(), inputs.a, stream());
  copy_to_device(device_b_.data(), inputs.b, stream());
  stream_.synchronize();
}

void vector_add_gpu_resident::poison_output() {
  poison_device(device_out_, stream());
  stream_.synchronize();
}

void vector_add_gpu_resident::enqueue() {
  launch_vector_add(device_a_.data(), device_b_.data(), device_out_.data(), out_.size(), stream());
}

std::span<const float> vector_add_gpu_resident::result() {
  reference::poison(out_);
  copy_to_host(out_, device_out_.data(), stream());
  stream_.synchronize();
  return out_;
}

}  // namespace handoff::patterns::elementwise

namespace handoff::patterns::elementwise {
namespace {

// Timed with CUDA events on the variant's stream. Variant: one of the three GPU variants, whose
// result() copies to the host (hence mutable: verify() is const).
template <class Variant>
class gpu_session final : public vector_add_session {
 public:
  explicit gpu_session(const vector_add_point& at)
      : inputs_(seeded_vector_add_inputs(at.count)), variant_(inputs_->view()) {}

  run_result run(vector_add_case&) override {
    variant_.enqueue();
    return {};
  }
  void poison(vector_add_case&) override { variant_.poison_output(); }
  reference::verification_result verify(const vector_add_case& work) const override {
    return work.verify_sum(variant_.result());
  }
  cudaStream_t stream() const override { return variant_.stream(); }

 private:
  std::shared_ptr<const vector_add_inputs> inputs_;  // what variant_ reads
  mutable Variant variant_;
};

floor_terms transfer_floor(std::size_t count, const char* upload, const char* download) {
  const double element = sizeof(float);
  floor_terms floor;
  floor.add_bytes(upload, 2.0 * element * static_cast<double>(count))
      .add_bytes(ceiling::device_copy, vector_add_bytes(count))
      .add_bytes(download, element * static_cast<double>(count))
      .add_events(ceiling::launch_async, 1);
  return floor;
}

}  // namespace

std::unique_ptr<vector_add_session> set_up_vector_add_gpu_transfers(const vector_add_point& at,
                                                                    compute_target) {
  return std::make_unique<gpu_session<vector_add_gpu_transfers>>(at);
}

std::unique_ptr<vector_add_session> set_up_vector_add_gpu_transfers_pinned(
    const vector_add_point& at, compute_target) {
  return std::make_unique<gpu_session<vector_add_gpu_transfers_pinned>>(at);
}

std::unique_ptr<vector_add_session> set_up_vector_add_gpu_resident(const vector_add_point& at,
                                                                   compute_target) {
  return std::make_unique<gpu_session<vector_add_gpu_resident>>(at);
}

floor_terms vector_add_transfers_floor(const vector_add_point& at, compute_target,
                                       const measured_run&) {
  return transfer_floor(at.count, ceiling::h2d_pageable, ceiling::d2h_pageable);
}

floor_terms vector_add_transfers_pinned_floor(const vector_add_point& at, compute_target,
                                              const measured_run&) {
  return transfer_floor(at.count, ceiling::h2d_pinned, ceiling::d2h_pinned);
}

floor_terms vector_add_resident_floor(const vector_add_point& at, compute_target,
                                      const measured_run&) {
  floor_terms floor;
  floor.add_bytes(ceiling::device_copy, vector_add_bytes(at.count))
      .add_events(ceiling::launch_async, 1);
  return floor;
}

constinit const vector_add_row gpu_transfers_variant{
    .name = "gpu_transfers",
    .description = "pageable copies to the device and back around the kernel",
    .targets = on_device,
    .clock = clock_kind::cuda_events,
    .reports_stages = false,
    .setup = set_up_vector_add_gpu_transfers,
    .floor = vector_add_transfers_floor};

constinit const vector_add_row gpu_transfers_pinned_variant{
    .name = "gpu_transfers_pinned",
    .description = "pinned copies to the device and back around the kernel",
    .targets = on_device,
    .clock = clock_kind::cuda_events,
    .reports_stages = false,
    .setup = set_up_vector_add_gpu_transfers_pinned,
    .floor = vector_add_transfers_pinned_floor};

constinit const vector_add_row gpu_resident_variant{
    .name = "gpu_resident",
    .description = "the kernel alone, the data already on the device",
    .targets = on_device,
    .clock = clock_kind::cuda_events,
    .reports_stages = false,
    .setup = set_up_vector_add_gpu_resident,
    .floor = vector_add_resident_floor};

}  // namespace handoff::patterns::elementwise

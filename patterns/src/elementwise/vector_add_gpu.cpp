#include <algorithm>

#include "handoff/patterns/elementwise/vector_add_variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/vector_add.hpp"

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

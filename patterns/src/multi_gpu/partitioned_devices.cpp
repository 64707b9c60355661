#include "handoff/patterns/multi_gpu/partitioned_devices.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>

#include "handoff/patterns/multi_gpu/launch_check.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/partitioned_elementwise.hpp"
#include "handoff/scoped_device.hpp"

namespace handoff::patterns::multi_gpu {

device_slot::device_slot(const partition_plan& plan, int rank_in_plan, int cuda_ordinal)
    : rank(rank_in_plan),
      ordinal(cuda_ordinal),
      parts(plan.parts_on(rank_in_plan)),
      elements(plan.elements_on(rank_in_plan)),
      input(elements),
      output(elements) {}

namespace {

std::vector<int> every_device(int count) {
  std::vector<int> devices(static_cast<std::size_t>(count));
  std::iota(devices.begin(), devices.end(), 0);
  return devices;
}

}  // namespace

partitioned_devices::partitioned_devices(partition_plan plan, std::span<const float> input)
    : partitioned_devices(plan, every_device(plan.devices), every_device(plan.devices), input) {}

partitioned_devices::partitioned_devices(partition_plan plan, std::span<const int> ranks,
                                         std::span<const int> ordinals,
                                         std::span<const float> input)
    : plan_(std::move(plan)), pinned_input_(input.size()) {
  check_plan(plan_);
  if (ranks.empty() || ranks.size() != ordinals.size()) {
    throw std::invalid_argument("partitioned_devices: " + std::to_string(ranks.size()) +
                                " ranks for " + std::to_string(ordinals.size()) +
                                " devices; give one CUDA device for each rank, at least one");
  }
  if (input.size() != plan_.elements) {
    throw std::invalid_argument("partitioned_devices: the input has " +
                                std::to_string(input.size()) + " elements, the plan " +
                                std::to_string(plan_.elements));
  }
  if (!input.empty()) std::memcpy(pinned_input_.data(), input.data(), input.size_bytes());
  slots_.reserve(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] < 0 || ranks[i] >= plan_.devices) {
      throw std::invalid_argument("partitioned_devices: rank " + std::to_string(ranks[i]) +
                                  " is not a device of the plan (0.." +
                                  std::to_string(plan_.devices - 1) + ")");
    }
    const scoped_device on_device(ordinals[i]);
    slots_.emplace_back(plan_, ranks[i], ordinals[i]);
  }
  enqueue_uploads();
  synchronize({.variant = {}, .stage = "uploading the input", .device = -1});
}

void partitioned_devices::fork() {
  record_fork_point();
  for (auto& slot : slots_)
    start(slot);
}

void partitioned_devices::join() {
  for (auto& slot : slots_)
    finish(slot);
  wait_for_slots();
}

void partitioned_devices::record_fork_point() {
  slots_.front().fork_point.record(origin());
}

void partitioned_devices::start(device_slot& slot) {
  HANDOFF_CUDA_CHECK(cudaStreamWaitEvent(slot.stream.get(), slots_.front().fork_point.get(), 0));
  slot.busy_start.record(slot.stream.get());
}

void partitioned_devices::finish(device_slot& slot) {
  slot.busy_stop.record(slot.stream.get());
  slot.done.record(slot.stream.get());
}

void partitioned_devices::wait_for_slots() {
  for (const auto& slot : slots_)
    HANDOFF_CUDA_CHECK(cudaStreamWaitEvent(origin(), slot.done.get(), 0));
}

void partitioned_devices::enqueue_uploads() {
  for (auto& slot : slots_)
    enqueue_uploads(slot);
}

void partitioned_devices::enqueue_uploads(device_slot& slot) {
  const scoped_device on_device(slot.ordinal);
  for (const auto& part : slot.parts) {
    if (part.count == 0) continue;
    HANDOFF_CUDA_CHECK(
        cudaMemcpyAsync(slot.input.data() + part.local_offset, pinned_input_.data() + part.offset,
                        part.count * sizeof(float), cudaMemcpyHostToDevice, slot.stream.get()));
  }
}

void partitioned_devices::enqueue_kernels(const user_kernel& kernel) {
  for (auto& slot : slots_)
    enqueue_kernel(slot, kernel);
}

void partitioned_devices::load_kernel(const user_kernel& kernel) {
  for (const auto& slot : slots_) {
    const scoped_device on_device(slot.ordinal);
    load_user_kernel(kernel);
  }
}

void partitioned_devices::enqueue_kernel(device_slot& slot, const user_kernel& kernel) {
  const float device_value = reference::device_value_of(slot.rank);
  if (slot.checked_kernel != nullptr && slot.checked_kernel == kernel.function) {
    const scoped_device on_device(slot.ordinal);
    if (slot.elements > 0) {
      launch_user_kernel(kernel, slot.input.data(), slot.output_data(), slot.elements, device_value,
                         slot.stream.get());
    }
    return;
  }
  checked_launch(kernel, slot.ordinal, slot.stream.get(), slot.input.data(), slot.output_data(),
                 slot.elements, device_value);
  slot.checked_kernel = kernel.function;
}

namespace {

void poison_each(std::span<device_slot> slots, device_buffer<float> device_slot::*buffer) {
  for (auto& slot : slots) {
    if (slot.elements == 0) continue;
    const scoped_device on_device(slot.ordinal);
    const auto& poisoned = slot.*buffer;
    HANDOFF_CUDA_CHECK(cudaMemsetAsync(poisoned.data(), reference::poison_byte,
                                       poisoned.size_bytes(), slot.stream.get()));
  }
}

}  // namespace

void partitioned_devices::poison_outputs() {
  for (auto& slot : slots_) {
    if (slot.elements == 0) continue;
    const scoped_device on_device(slot.ordinal);
    HANDOFF_CUDA_CHECK(cudaMemsetAsync(slot.output_data(), reference::poison_byte,
                                       slot.elements * sizeof(float), slot.stream.get()));
  }
  synchronize({.variant = {}, .stage = "poisoning the outputs", .device = -1});
}

void partitioned_devices::poison_inputs() {
  poison_each(slots_, &device_slot::input);
  synchronize({.variant = {}, .stage = "poisoning the inputs", .device = -1});
}

void partitioned_devices::synchronize(const wait_site& site) const {
  for (const auto& slot : slots_)
    wait_for(slot.stream, {.variant = site.variant, .stage = site.stage, .device = slot.ordinal});
}

std::vector<double> partitioned_devices::busy_seconds() const {
  std::vector<double> seconds;
  for (const auto& slot : slots_)
    seconds.push_back(elapsed_milliseconds(slot.busy_start, slot.busy_stop) * 1e-3);
  return seconds;
}

reference::host_vector<float> partitioned_devices::assembled_outputs() const {
  reference::host_vector<float> assembled(plan_.elements);
  reference::poison(assembled);
  // Each part straight to its place: at the headline size a staging copy of the whole device's
  // output cost more than the verification it fed, on every row.
  for (const auto& slot : slots_) {
    for (const auto& part : slot.parts) {
      if (part.count == 0) continue;
      HANDOFF_CUDA_CHECK(cudaMemcpy(assembled.data() + part.offset,
                                    slot.output_data() + part.local_offset,
                                    part.count * sizeof(float), cudaMemcpyDefault));
    }
  }
  return assembled;
}

}  // namespace handoff::patterns::multi_gpu

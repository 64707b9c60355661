#include "handoff/patterns/multi_gpu/nccl_gather.hpp"
#include "handoff/reference/host_vector.hpp"

#include "handoff/bounded_wait.hpp"
#include "handoff/cuda_check.hpp"
#include "handoff/patterns/multi_gpu/nccl_library.hpp"
#include "handoff/patterns/multi_gpu/nccl_windows.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/scoped_device.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

class nccl_gather final : public device_gather {
 public:
  nccl_gather(const partitioned_devices& devices, nccl_communicators communicators,
              nccl_result_memory memory)
      : communicators_(std::move(communicators)), elements_(devices.plan().elements) {
    if (communicators_.size() != devices.slots().size()) {
      throw std::invalid_argument("nccl_allgather: one communicator per device slot is needed");
    }
    for (const auto& slot : devices.slots())
      ordinals_.push_back(slot.ordinal);
    windows_requested_ = memory == nccl_result_memory::symmetric_window;
    // Windows only where ncclAllGather gathers: the one way into them run on two GPUs so far. On
    // two H200s (NCCL 2.28.3) a test that runs every variant on an uneven plan did not end within
    // 70 s, which variant stalled unknown; broadcasts into windows had never run on two GPUs, so
    // an uneven plan's broadcasts go into ordinary memory, as nccl_allgather's do.
    if (windows_requested_ && gathers_with_all_gather(devices.plan())) {
      windows_ = std::make_unique<nccl_symmetric_windows>(communicators_, ordinals_, elements_);
      for (std::size_t i = 0; i < ordinals_.size(); ++i)
        results_.push_back(windows_->data(i));
      return;
    }
    for (const int ordinal : ordinals_) {
      const scoped_device on_device(ordinal);
      device_results_.emplace_back(elements_);
      results_.push_back(device_results_.back().data());
    }
  }

  void poison() override {
    if (elements_ == 0) return;
    // Each device's copy is poisoned from its own device: without peer access, a memset of
    // another device's memory is an invalid value.
    for (std::size_t i = 0; i < results_.size(); ++i) {
      const scoped_device on_device(ordinals_[i]);
      HANDOFF_CUDA_CHECK(cudaMemset(results_[i], reference::poison_byte, result_bytes()));
      wait_for_default_stream(
          {.variant = windows_requested_ ? "nccl_allgather_window" : "nccl_allgather",
           .stage = "poisoning the gathered copies",
           .device = ordinals_[i]});
    }
  }

  void enqueue(partitioned_devices& devices) override {
    const auto& plan = devices.plan();
    const nccl_group group;
    for (std::size_t i = 0; i < devices.slots().size(); ++i) {
      auto& slot = devices.slots()[i];
      const scoped_device on_device(slot.ordinal);
      enqueue_slot(plan, slot, communicators_[i], results_[i]);
    }
  }

  std::vector<reference::host_vector<float>> results() const override {
    std::vector<reference::host_vector<float>> copies;
    for (float* result : results_) {
      reference::host_vector<float> copy(elements_);
      if (elements_ > 0) {
        HANDOFF_CUDA_CHECK(cudaMemcpy(copy.data(), result, result_bytes(), cudaMemcpyDefault));
      }
      copies.push_back(std::move(copy));
    }
    return copies;
  }

  // An empty array has nothing to register, so it reports nothing about registration.
  std::vector<named_figure> figures() const override {
    if (!windows_requested_ || elements_ == 0) return {};
    return {{"nccl_windows_registered", windows_ && windows_->all_registered() ? 1.0 : 0.0}};
  }

 private:
  std::size_t result_bytes() const noexcept { return elements_ * sizeof(float); }

  static void enqueue_slot(const partition_plan& plan, device_slot& slot, ncclComm_t communicator,
                           float* result) {
    if (gathers_with_all_gather(plan)) {
      HANDOFF_NCCL_CHECK(nccl().all_gather(slot.output.data(), result, slot.elements, ncclFloat,
                                           communicator, slot.stream.get()));
      return;
    }
    // Every rank takes part in every broadcast; only the root's send buffer is read.
    for (const auto& part : plan.parts) {
      if (part.count == 0) continue;
      const float* send =
          part.device == slot.rank ? slot.output.data() + part.local_offset : result + part.offset;
      HANDOFF_NCCL_CHECK(nccl().broadcast(send, result + part.offset, part.count, ncclFloat,
                                          part.device, communicator, slot.stream.get()));
    }
  }

  // Declared first, destroyed last: the windows are deregistered from their communicators.
  nccl_communicators communicators_;
  std::size_t elements_;
  std::vector<int> ordinals_;
  std::vector<device_buffer<float>> device_results_;
  bool windows_requested_ = false;
  std::unique_ptr<nccl_symmetric_windows> windows_;
  std::vector<float*> results_;  // each device's copy, in either memory
};

}  // namespace

bool gathers_with_all_gather(const partition_plan& plan) {
  return plan.uniform() && plan.elements > 0;
}

std::unique_ptr<device_gather> make_nccl_gather(const partitioned_devices& devices,
                                                nccl_communicators communicators,
                                                nccl_result_memory memory) {
  return std::make_unique<nccl_gather>(devices, std::move(communicators), memory);
}

}  // namespace handoff::patterns::multi_gpu

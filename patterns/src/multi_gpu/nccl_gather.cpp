#include "handoff/patterns/multi_gpu/nccl_gather.hpp"

#include <optional>

#include "handoff/bounded_wait.hpp"
#include "handoff/cuda_check.hpp"
#include "handoff/patterns/multi_gpu/nccl_library.hpp"
#include "handoff/patterns/multi_gpu/nccl_tuning_log.hpp"
#include "handoff/patterns/multi_gpu/nccl_windows.hpp"
#include "handoff/reference/host_vector.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/scoped_device.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

class nccl_gather final : public device_gather {
 public:
  nccl_gather(partitioned_devices& devices, nccl_communicators communicators,
              nccl_result_memory memory)
      : communicators_(std::move(communicators)),
        elements_(devices.plan().elements),
        stalls_when_made_(gpu_stalls_so_far()) {
    if (communicators_.size() != devices.slots().size()) {
      throw std::invalid_argument("nccl_allgather: one communicator per device slot is needed");
    }
    for (const auto& slot : devices.slots())
      ordinals_.push_back(slot.ordinal);
    windows_requested_ = memory == nccl_result_memory::symmetric_window;
    if (const auto log = nccl_tuning_log_file()) {
      tuning_log_.emplace(*log,
                          gathers_with_all_gather(devices.plan()) ? "AllGather" : "Broadcast");
    }
    // Windows only where ncclAllGather gathers, the one way into them verified on several GPUs:
    // an uneven plan's broadcasts go into ordinary memory, as nccl_allgather's do.
    if (windows_requested_ && gathers_with_all_gather(devices.plan())) {
      windows_ = std::make_unique<nccl_symmetric_windows>(communicators_, ordinals_, elements_);
      for (std::size_t i = 0; i < ordinals_.size(); ++i)
        results_.push_back(windows_->data(i));
      gather_in_place(devices);
      return;
    }
    for (const int ordinal : ordinals_) {
      const scoped_device on_device(ordinal);
      device_results_.emplace_back(elements_);
      results_.push_back(device_results_.back().data());
    }
  }

  nccl_gather(const nccl_gather&) = delete;
  nccl_gather& operator=(const nccl_gather&) = delete;

  ~nccl_gather() override {
    if (lent_to_ != nullptr) {
      for (auto& slot : lent_to_->slots()) {
        slot.lent_output = nullptr;
        slot.checked_kernel = nullptr;
      }
    }
    // After a wait of this process gave up, a collective may still wait for a peer that never
    // arrives: the communicators are aborted, which stops NCCL's kernels, before any memory is
    // freed (a free waits for the device).
    if (gpu_stalls_so_far() == stalls_when_made_) return;
    communicators_.abort();
    if (windows_) windows_->abandon();
  }

  void poison() override {
    if (elements_ == 0) return;
    // Each device's copy is poisoned from its own device: without peer access, a memset of
    // another device's memory is an invalid value. In place, a device's own part is what it
    // sends, and stays: the parts it receives are poisoned.
    for (std::size_t i = 0; i < results_.size(); ++i) {
      const scoped_device on_device(ordinals_[i]);
      if (!own_parts_.empty()) {
        poison_around(results_[i], own_parts_[i]);
      } else {
        HANDOFF_CUDA_CHECK(cudaMemset(results_[i], reference::poison_byte, result_bytes()));
      }
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
  // The paths NCCL logged since the row's last figures, where its log is on (nccl_tuning_log.hpp).
  std::vector<named_figure> figures() const override {
    std::vector<named_figure> figures;
    if (windows_requested_ && elements_ > 0) {
      figures.push_back(
          {"nccl_windows_registered", windows_ && windows_->all_registered() ? 1.0 : 0.0});
      figures.push_back({"nccl_in_place", own_parts_.empty() ? 0.0 : 1.0});
    }
    if (tuning_log_) {
      for (auto& figure : nccl_path_figures(tuning_log_->read_new_paths()))
        figures.push_back(std::move(figure));
    }
    return figures;
  }

 private:
  std::size_t result_bytes() const noexcept { return elements_ * sizeof(float); }

  // NCCL takes its symmetric kernels only where the send buffer is registered too: each device's
  // kernel writes its part straight into its own slice of its window, and the all-gather sends
  // from there, in place, rather than from the slot's output.
  void gather_in_place(partitioned_devices& devices) {
    for (std::size_t i = 0; i < devices.slots().size(); ++i) {
      auto& slot = devices.slots()[i];
      const part& own = slot.parts.front();
      slot.lent_output = results_[i] + own.offset;
      slot.checked_kernel = nullptr;  // a new output: the launch is checked again
      own_parts_.push_back(own);
    }
    lent_to_ = &devices;
  }

  void poison_around(float* result, const part& own) const {
    const std::size_t after = own.offset + own.count;
    if (own.offset > 0) {
      HANDOFF_CUDA_CHECK(cudaMemset(result, reference::poison_byte, own.offset * sizeof(float)));
    }
    if (after < elements_) {
      HANDOFF_CUDA_CHECK(
          cudaMemset(result + after, reference::poison_byte, (elements_ - after) * sizeof(float)));
    }
  }

  static void enqueue_slot(const partition_plan& plan, device_slot& slot, ncclComm_t communicator,
                           float* result) {
    if (gathers_with_all_gather(plan)) {
      HANDOFF_NCCL_CHECK(nccl().all_gather(slot.output_data(), result, slot.elements, ncclFloat,
                                           communicator, slot.stream.get()));
      return;
    }
    // Every rank takes part in every broadcast; only the root's send buffer is read.
    for (const auto& part : plan.parts) {
      if (part.count == 0) continue;
      const float* send =
          part.device == slot.rank ? slot.output_data() + part.local_offset : result + part.offset;
      HANDOFF_NCCL_CHECK(nccl().broadcast(send, result + part.offset, part.count, ncclFloat,
                                          part.device, communicator, slot.stream.get()));
    }
  }

  // Declared first, destroyed last: the windows are deregistered from their communicators.
  nccl_communicators communicators_;
  std::size_t elements_;
  std::size_t stalls_when_made_;
  std::vector<int> ordinals_;
  std::vector<device_buffer<float>> device_results_;
  bool windows_requested_ = false;
  std::unique_ptr<nccl_symmetric_windows> windows_;
  std::vector<float*> results_;  // each device's copy, in either memory
  std::vector<part> own_parts_;  // in place: each device's own part of its copy
  partitioned_devices* lent_to_ = nullptr;
  mutable std::optional<nccl_tuning_log> tuning_log_;
};

}  // namespace

bool gathers_with_all_gather(const partition_plan& plan) {
  return plan.uniform() && plan.elements > 0;
}

std::unique_ptr<device_gather> make_nccl_gather(partitioned_devices& devices,
                                                nccl_communicators communicators,
                                                nccl_result_memory memory) {
  return std::make_unique<nccl_gather>(devices, std::move(communicators), memory);
}

}  // namespace handoff::patterns::multi_gpu

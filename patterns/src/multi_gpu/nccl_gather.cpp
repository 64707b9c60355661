#include "handoff/patterns/multi_gpu/nccl_gather.hpp"

#include "handoff/cuda_check.hpp"
#include "handoff/patterns/multi_gpu/nccl_library.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/scoped_device.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

// Ends the group even when a call inside it throws, so NCCL is never left mid-group.
class nccl_group {
 public:
  nccl_group() { HANDOFF_NCCL_CHECK(nccl().group_start()); }
  nccl_group(const nccl_group&) = delete;
  nccl_group& operator=(const nccl_group&) = delete;
  ~nccl_group() noexcept(false) {
    const ncclResult_t status = nccl().group_end();
    if (std::uncaught_exceptions() == 0) HANDOFF_NCCL_CHECK(status);
  }
};

class nccl_gather final : public device_gather {
 public:
  nccl_gather(const partitioned_devices& devices, nccl_communicators communicators)
      : communicators_(std::move(communicators)) {
    if (communicators_.size() != devices.slots().size()) {
      throw std::invalid_argument("nccl_allgather: one communicator per device slot is needed");
    }
    for (const auto& slot : devices.slots()) {
      const scoped_device on_device(slot.ordinal);
      results_.emplace_back(devices.plan().elements);
      ordinals_.push_back(slot.ordinal);
    }
  }

  void poison() override {
    // Each device's copy is poisoned from its own device: without peer access, a memset of
    // another device's memory is an invalid value.
    for (std::size_t i = 0; i < results_.size(); ++i) {
      if (results_[i].size() == 0) continue;
      const scoped_device on_device(ordinals_[i]);
      HANDOFF_CUDA_CHECK(
          cudaMemset(results_[i].data(), reference::poison_byte, results_[i].size_bytes()));
      HANDOFF_CUDA_CHECK(cudaDeviceSynchronize());
    }
  }

  void enqueue(partitioned_devices& devices) override {
    const auto& plan = devices.plan();
    const nccl_group group;
    for (std::size_t i = 0; i < devices.slots().size(); ++i) {
      auto& slot = devices.slots()[i];
      const scoped_device on_device(slot.ordinal);
      enqueue_slot(plan, slot, communicators_[i], results_[i].data());
    }
  }

  std::vector<std::vector<float>> results() const override {
    std::vector<std::vector<float>> copies;
    for (const auto& result : results_) {
      std::vector<float> copy(result.size());
      HANDOFF_CUDA_CHECK(
          cudaMemcpy(copy.data(), result.data(), result.size_bytes(), cudaMemcpyDefault));
      copies.push_back(std::move(copy));
    }
    return copies;
  }

 private:
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

  nccl_communicators communicators_;
  std::vector<device_buffer<float>> results_;
  std::vector<int> ordinals_;
};

}  // namespace

bool gathers_with_all_gather(const partition_plan& plan) {
  return plan.uniform() && plan.elements > 0;
}

std::unique_ptr<device_gather> make_nccl_gather(const partitioned_devices& devices,
                                                nccl_communicators communicators) {
  return std::make_unique<nccl_gather>(devices, std::move(communicators));
}

}  // namespace handoff::patterns::multi_gpu

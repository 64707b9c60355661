// cuda_ipc and vmm_fd: no bytes cross the host. The sender shares the memory its tensor lives in,
// and the receiver maps it and copies the tensor into its own. The receiver's reply is the release:
// only after it may the sender reuse or free the memory.

#include <cuda_runtime_api.h>

#include <atomic>
#include <optional>

#include "handoff/device_buffer.hpp"
#include "handoff/patterns/ipc/cuda_ipc.hpp"
#include "handoff/patterns/ipc/vmm_shareable.hpp"
#include "handoff/patterns/tensor_transfer/device_direct_sessions.hpp"
#include "handoff/patterns/tensor_transfer/timed_stage.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns {
namespace {

int current_device() {
  int device = 0;
  HANDOFF_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

void copy_device_range(std::byte* destination, const std::byte* source, std::size_t bytes,
                       const stream& on) {
  if (bytes > 0) {
    HANDOFF_CUDA_CHECK(
        cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToDevice, on.get()));
  }
  on.synchronize();
}

// The zero-copy variants need no channel of their own: the control connection carries the
// records, so a session only tells the receiver which variant to expect.
void announce_session(connection& control, transfer_variant variant,
                      deadline_clock::time_point deadline) {
  control.send_record(command_record{.command = receiver_command::open_session, .variant = variant},
                      deadline);
}

void require_size(std::uint64_t announced, const tensor_memory& destination) {
  if (announced != destination.bytes()) {
    throw transfer_protocol_error("the sender shares " + std::to_string(announced) +
                                  " bytes; the receiver expects " +
                                  std::to_string(destination.bytes()));
  }
}

// cuda_ipc: the tensor lives in cudaMalloc memory; its handle and an interprocess event go over the
// control connection.
class cuda_ipc_sender final : public sender_session {
 public:
  explicit cuda_ipc_sender(const tensor_memory& source)
      : exporter_(current_device()), tensor_(source.bytes()) {
    copy_device_range(tensor_.data(), source.device_data(), source.bytes(), stream_);
  }
  void open(connection& control, deadline_clock::time_point deadline) override {
    announce_session(control, transfer_variant::cuda_ipc, deadline);
  }
  // serialize: exporting the range (handle lookup, recording the interprocess event).
  void send(connection& control, const tensor_memory&, stage_times& stages,
            deadline_clock::time_point deadline, const peer_watch&) override {
    const auto record = timed_stage(stages.serialize, [&] {
      return exporter_.export_range(tensor_.data(), tensor_.size(), stream_.get());
    });
    control.send_record(record, deadline);
  }

 private:
  stream stream_;
  ipc_exporter exporter_;
  device_buffer<std::byte> tensor_;
};

class cuda_ipc_receiver final : public receiver_session {
 public:
  cuda_ipc_receiver() : importer_(current_device()) {}
  // deserialize: opening the handle and event (cached after the first) and queueing the wait.
  void receive(connection& control, tensor_memory& destination, stage_times& stages,
               deadline_clock::time_point deadline, const peer_watch&) override {
    const auto record = control.receive_record<ipc_export_record>(deadline);
    require_size(record.bytes, destination);
    const std::byte* shared =
        timed_stage(stages.deserialize, [&] { return importer_.open(record, stream_.get()); });
    copy_device_range(destination.device_data(), shared, record.bytes, stream_);
  }

 private:
  stream stream_;
  ipc_importer importer_;  // closes its mappings before the sender's session frees the memory
};

// vmm_fd: the tensor lives in a cuMem allocation; the first transfer passes its descriptor with
// SCM_RIGHTS, later ones only name it.
struct vmm_record {
  std::uint64_t allocation_id = 0;
  std::uint64_t bytes = 0;
  std::uint64_t mapped_bytes = 0;
  std::uint32_t carries_descriptor = 0;
  std::uint32_t reserved = 0;
};

std::uint64_t next_allocation_id() {
  static std::atomic<std::uint64_t> counter{1};
  return counter++;
}

class vmm_fd_sender final : public sender_session {
 public:
  explicit vmm_fd_sender(const tensor_memory& source)
      : allocation_(vmm_allocation::create(current_device(), source.bytes())),
        allocation_id_(next_allocation_id()) {
    copy_device_range(allocation_.data(), source.device_data(), source.bytes(), stream_);
  }
  void open(connection& control, deadline_clock::time_point deadline) override {
    announce_session(control, transfer_variant::vmm_fd, deadline);
  }
  // serialize: exporting the descriptor, on the first transfer only.
  void send(connection& control, const tensor_memory&, stage_times& stages,
            deadline_clock::time_point deadline, const peer_watch&) override {
    const bool first = !descriptor_sent_;
    control.send_record(vmm_record{.allocation_id = allocation_id_,
                                   .bytes = allocation_.bytes(),
                                   .mapped_bytes = allocation_.mapped_bytes(),
                                   .carries_descriptor = first ? 1U : 0U},
                        deadline);
    if (first) {
      const unique_fd descriptor =
          timed_stage(stages.serialize, [&] { return allocation_.export_descriptor(); });
      control.send_fd(descriptor.get(), deadline);
      descriptor_sent_ = true;
    }
  }

 private:
  stream stream_;
  vmm_allocation allocation_;
  std::uint64_t allocation_id_;
  bool descriptor_sent_ = false;
};

class vmm_fd_receiver final : public receiver_session {
 public:
  // deserialize: importing and mapping the descriptor, on the first transfer only.
  void receive(connection& control, tensor_memory& destination, stage_times& stages,
               deadline_clock::time_point deadline, const peer_watch&) override {
    const auto record = control.receive_record<vmm_record>(deadline);
    require_size(record.bytes, destination);
    if (record.carries_descriptor != 0) {
      const unique_fd descriptor = control.receive_fd(deadline);
      imported_.reset();
      timed_stage(stages.deserialize, [&] {
        imported_.emplace(
            vmm_import::open(descriptor.get(), record.mapped_bytes, current_device()));
      });
      allocation_id_ = record.allocation_id;
    } else if (!imported_ || allocation_id_ != record.allocation_id) {
      throw transfer_protocol_error("the sender names allocation " +
                                    std::to_string(record.allocation_id) +
                                    ", whose descriptor this receiver never got");
    }
    copy_device_range(destination.device_data(), imported_->data(), record.bytes, stream_);
  }

 private:
  stream stream_;
  std::optional<vmm_import> imported_;
  std::uint64_t allocation_id_ = 0;
};

}  // namespace

std::unique_ptr<sender_session> make_cuda_ipc_sender(const tensor_memory& source) {
  return std::make_unique<cuda_ipc_sender>(source);
}
std::unique_ptr<receiver_session> open_cuda_ipc_receiver() {
  return std::make_unique<cuda_ipc_receiver>();
}
std::unique_ptr<sender_session> make_vmm_fd_sender(const tensor_memory& source) {
  return std::make_unique<vmm_fd_sender>(source);
}
std::unique_ptr<receiver_session> open_vmm_fd_receiver() {
  return std::make_unique<vmm_fd_receiver>();
}

std::unique_ptr<sender_session> make_device_direct_sender(transfer_variant variant,
                                                          const tensor_memory& source) {
  switch (variant) {
    case transfer_variant::shm_pinned:
      return make_shm_pinned_sender();
    case transfer_variant::cuda_ipc:
      return make_cuda_ipc_sender(source);
    case transfer_variant::vmm_fd:
      return make_vmm_fd_sender(source);
    default:
      throw std::invalid_argument(std::string(variant_name(variant)) +
                                  " is not a device-direct variant");
  }
}

std::unique_ptr<receiver_session> open_device_direct_receiver(const command_record& command,
                                                              connection& control,
                                                              deadline_clock::time_point deadline) {
  switch (command.variant) {
    case transfer_variant::shm_pinned:
      return open_shm_pinned_receiver(control, deadline);
    case transfer_variant::cuda_ipc:
      return open_cuda_ipc_receiver();
    case transfer_variant::vmm_fd:
      return open_vmm_fd_receiver();
    default:
      throw std::invalid_argument(std::string(variant_name(command.variant)) +
                                  " is not a device-direct variant");
  }
}

}  // namespace handoff::patterns

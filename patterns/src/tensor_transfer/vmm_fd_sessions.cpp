// vmm_fd: the tensor lives in a cuMem allocation; the first transfer passes its POSIX descriptor
// with SCM_RIGHTS, later ones only name it. Zero copy across the host (see zero_copy_support.hpp
// for what the receiver's reply releases).

#include <atomic>
#include <optional>

#include "declared_variants.hpp"
#include "handoff/patterns/tensor_transfer/timed_stage.hpp"
#include "handoff/patterns/tensor_transfer/transfer_floors.hpp"
#include "handoff/patterns/tensor_transfer/variants.hpp"
#include "handoff/stream.hpp"
#include "handoff/transport/ipc/vmm_shareable.hpp"
#include "zero_copy_support.hpp"

namespace handoff::patterns {

using transport::connection;
using transport::deadline_clock;

namespace {

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
      : allocation_(transport::vmm_allocation::create(current_device(), source.bytes())),
        allocation_id_(next_allocation_id()) {
    copy_device_range(allocation_.data(), source.device_data(), source.bytes(), stream_);
  }
  void open(connection& control, command_record announce,
            deadline_clock::time_point deadline) override {
    control.send_record(announce, deadline);
  }
  // serialize: exporting the descriptor, on the first transfer only.
  void send(connection& control, const tensor_memory&, stage_times& stages,
            deadline_clock::time_point deadline, const transport::peer_watch&) override {
    const bool first = !descriptor_sent_;
    control.send_record(vmm_record{.allocation_id = allocation_id_,
                                   .bytes = allocation_.bytes(),
                                   .mapped_bytes = allocation_.mapped_bytes(),
                                   .carries_descriptor = first ? 1U : 0U},
                        deadline);
    if (first) {
      const transport::unique_fd descriptor =
          timed_stage(stages.serialize, [&] { return allocation_.export_descriptor(); });
      control.send_fd(descriptor.get(), deadline);
      descriptor_sent_ = true;
    }
  }
  bool sends_on_control_only() const override { return true; }

 private:
  stream stream_;
  transport::vmm_allocation allocation_;
  std::uint64_t allocation_id_;
  bool descriptor_sent_ = false;
};

class vmm_fd_receiver final : public receiver_session {
 public:
  // deserialize: importing and mapping the descriptor, on the first transfer only.
  void receive(connection& control, tensor_memory& destination, stage_times& stages,
               deadline_clock::time_point deadline, const transport::peer_watch&) override {
    const auto record = control.receive_record<vmm_record>(deadline);
    require_size(record.bytes, destination);
    if (record.carries_descriptor != 0) {
      const transport::unique_fd descriptor = control.receive_fd(deadline);
      imported_.reset();
      timed_stage(stages.deserialize, [&] {
        imported_.emplace(
            transport::vmm_import::open(descriptor.get(), record.mapped_bytes, current_device()));
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
  std::optional<transport::vmm_import> imported_;
  std::uint64_t allocation_id_ = 0;
};

std::unique_ptr<sender_session> make_vmm_fd_sender(const tensor_memory& source) {
  return std::make_unique<vmm_fd_sender>(source);
}

std::unique_ptr<receiver_session> open_vmm_fd_receiver(const command_record&, connection&,
                                                       deadline_clock::time_point) {
  return std::make_unique<vmm_fd_receiver>();
}

}  // namespace

constinit const transfer_row vmm_fd_variant{
    .name = "vmm_fd",
    .description = "a cuMem file descriptor passed over SCM_RIGHTS: no copy through the host",
    .targets = device_only,
    .clock = transfer_clock,
    .cold = transfer_cold,
    .setup = set_up_transfer<vmm_fd_variant>,
    .floor = shared_device_memory_floor,
    .specifics = {.make_sender = make_vmm_fd_sender, .open_receiver = open_vmm_fd_receiver}};

}  // namespace handoff::patterns

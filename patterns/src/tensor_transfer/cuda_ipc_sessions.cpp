// cuda_ipc: the tensor lives in cudaMalloc memory; a legacy CUDA IPC handle for it and an
// interprocess event go over the control connection. Zero copy across the host (see
// zero_copy_support.hpp for what the receiver's reply releases).

#include <cuda_runtime_api.h>

#include "declared_variants.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/patterns/tensor_transfer/timed_stage.hpp"
#include "handoff/patterns/tensor_transfer/transfer_floors.hpp"
#include "handoff/patterns/tensor_transfer/variants.hpp"
#include "handoff/stream.hpp"
#include "handoff/transport/ipc/cuda_ipc.hpp"
#include "zero_copy_support.hpp"

namespace handoff::patterns {

using transport::connection;
using transport::deadline_clock;

namespace {

class cuda_ipc_sender final : public sender_session {
 public:
  explicit cuda_ipc_sender(const tensor_memory& source)
      : exporter_(current_device()), tensor_(source.bytes()) {
    copy_device_range(tensor_.data(), source.device_data(), source.bytes(), stream_);
  }
  void open(connection& control, command_record announce,
            deadline_clock::time_point deadline) override {
    control.send_record(announce, deadline);
  }
  // serialize: exporting the range (handle lookup, recording the interprocess event).
  void send(connection& control, const tensor_memory&, stage_times& stages,
            deadline_clock::time_point deadline, const transport::peer_watch&) override {
    const auto record = timed_stage(stages.serialize, [&] {
      return exporter_.export_range(tensor_.data(), tensor_.size(), stream_.get());
    });
    control.send_record(record, deadline);
  }

 private:
  stream stream_;
  transport::ipc_exporter exporter_;
  device_buffer<std::byte> tensor_;
};

class cuda_ipc_receiver final : public receiver_session {
 public:
  cuda_ipc_receiver() : importer_(current_device()) {}
  // deserialize: opening the handle and event (cached after the first) and queueing the wait.
  void receive(connection& control, tensor_memory& destination, stage_times& stages,
               deadline_clock::time_point deadline, const transport::peer_watch&) override {
    const auto record = control.receive_record<transport::ipc_export_record>(deadline);
    require_size(record.bytes, destination);
    const std::byte* shared =
        timed_stage(stages.deserialize, [&] { return importer_.open(record, stream_.get()); });
    copy_device_range(destination.device_data(), shared, record.bytes, stream_);
  }

 private:
  stream stream_;
  transport::ipc_importer
      importer_;  // closes its mappings before the sender's session frees the memory
};

std::unique_ptr<sender_session> make_cuda_ipc_sender(const tensor_memory& source) {
  return std::make_unique<cuda_ipc_sender>(source);
}

std::unique_ptr<receiver_session> open_cuda_ipc_receiver(const command_record&, connection&,
                                                         deadline_clock::time_point) {
  return std::make_unique<cuda_ipc_receiver>();
}

}  // namespace

constinit const transfer_row cuda_ipc_variant{
    .name = "cuda_ipc",
    .description = "a CUDA IPC memory handle and an event: no copy through the host",
    .targets = device_only,
    .clock = transfer_clock,
    .cold = transfer_cold,
    .setup = set_up_transfer<cuda_ipc_variant>,
    .floor = shared_device_memory_floor,
    .specifics = {.make_sender = make_cuda_ipc_sender, .open_receiver = open_cuda_ipc_receiver}};

}  // namespace handoff::patterns

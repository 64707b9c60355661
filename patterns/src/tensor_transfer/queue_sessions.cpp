// queue: the frame travels through a multiprocessing-style queue, like the article's
// multiprocessing.Queue(). get() hands back a new buffer, as Python's unpickling does, so the
// receiver validates the frame there and copies the payload out of it.

#include <cstring>
#include <optional>

#include "handoff/patterns/channels/process_queue.hpp"
#include "handoff/patterns/tensor_transfer/framing.hpp"
#include "handoff/patterns/tensor_transfer/host_path_sessions.hpp"
#include "handoff/patterns/tensor_transfer/timed_stage.hpp"

namespace handoff::patterns {
namespace {

class queue_sender final : public sender_session {
 public:
  explicit queue_sender(std::uint64_t bytes) : bytes_(bytes) {}

  void open(connection& control, deadline_clock::time_point deadline) override {
    queue_.emplace(process_queue::create(
        {.max_message_bytes = frame_header_bytes + bytes_, .purpose = "tensor-queue"}));
    const auto descriptors = queue_->descriptors();
    control.send_record(
        command_record{.command = receiver_command::open_session,
                       .variant = transfer_variant::queue,
                       .descriptors = static_cast<std::uint32_t>(descriptors.size()),
                       .bytes = bytes_},
        deadline);
    for (const int descriptor : descriptors)
      control.send_fd(descriptor, deadline);
  }

  void send(connection&, const tensor_memory& source, stage_times& stages,
            deadline_clock::time_point deadline, const peer_watch& watch) override {
    const auto framed = frame_source(source, staging_, stages);
    queue_->put_parts({framed.header, framed.payload}, deadline, watch);
  }

 private:
  std::uint64_t bytes_;
  std::optional<process_queue> queue_;
  std::vector<std::byte> staging_;
};

class queue_receiver final : public receiver_session {
 public:
  queue_receiver(std::vector<unique_fd> descriptors, process_queue queue)
      : descriptors_(std::move(descriptors)), queue_(std::move(queue)) {}

  void receive(connection&, tensor_memory& destination, stage_times& stages,
               deadline_clock::time_point deadline, const peer_watch& watch) override {
    const auto message = queue_.get(deadline, watch);
    const auto frame =
        timed_stage(stages.deserialize, [&] { return decode_frame(message, destination.bytes()); });
    if (frame.header.payload_bytes != destination.bytes()) {
      throw frame_shape_mismatch("frame carries " + std::to_string(frame.header.payload_bytes) +
                                 " payload bytes; the receiver expects " +
                                 std::to_string(destination.bytes()));
    }
    if (destination.device_data() != nullptr) {
      timed_stage(stages.h2d, [&] { destination.copy_from_host(0, frame.payload); });
    } else {
      timed_stage(stages.deserialize, [&] { destination.copy_from_host(0, frame.payload); });
    }
  }

 private:
  std::vector<unique_fd> descriptors_;  // kept open for as long as the queue uses them
  process_queue queue_;
};

}  // namespace

std::unique_ptr<sender_session> make_queue_sender(std::uint64_t bytes) {
  return std::make_unique<queue_sender>(bytes);
}

std::unique_ptr<receiver_session> open_queue_receiver(const command_record& command,
                                                      connection& control,
                                                      deadline_clock::time_point deadline) {
  std::vector<unique_fd> descriptors;
  std::vector<int> numbers;
  for (std::uint32_t index = 0; index < command.descriptors; ++index) {
    descriptors.push_back(control.receive_fd(deadline));
    numbers.push_back(descriptors.back().get());
  }
  auto queue = process_queue::attach(numbers);
  return std::make_unique<queue_receiver>(std::move(descriptors), std::move(queue));
}

}  // namespace handoff::patterns

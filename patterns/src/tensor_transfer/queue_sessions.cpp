// queue: the frame travels through a multiprocessing-style queue, like the article's
// multiprocessing.Queue(). The receiver takes each message straight into where the tensor lands
// (get_into, no allocation per message), then validates the frame.

#include <cstring>
#include <optional>

#include "handoff/patterns/tensor_transfer/framing.hpp"
#include "handoff/patterns/tensor_transfer/timed_stage.hpp"
#include "handoff/patterns/tensor_transfer/transfer_floors.hpp"
#include "handoff/patterns/tensor_transfer/variants.hpp"
#include "handoff/transport/channels/process_queue.hpp"

namespace handoff::patterns {

using transport::connection;
using transport::deadline_clock;
using transport::process_queue;
using transport::unique_fd;

namespace {

class queue_sender final : public sender_session {
 public:
  explicit queue_sender(std::uint64_t bytes) : bytes_(bytes) {}

  void open(connection& control, command_record announce,
            deadline_clock::time_point deadline) override {
    queue_.emplace(process_queue::create(
        {.max_message_bytes = transport::frame_header_bytes + bytes_, .purpose = "tensor-queue"}));
    const auto descriptors = queue_->descriptors();
    announce.descriptors = static_cast<std::uint32_t>(descriptors.size());
    announce.bytes = bytes_;
    control.send_record(announce, deadline);
    for (const int descriptor : descriptors)
      control.send_fd(descriptor, deadline);
  }

  void send(connection&, const tensor_memory& source, stage_times& stages,
            deadline_clock::time_point deadline, const transport::peer_watch& watch) override {
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
               deadline_clock::time_point deadline, const transport::peer_watch& watch) override {
    transport::frame_header_bytes_array header_bytes;
    const auto landing = landing_for(destination, staging_);
    const std::size_t length = queue_.get_into({header_bytes, landing}, deadline, watch);
    if (length < transport::frame_header_bytes) {
      throw transport::frame_truncated("a queue message of " + std::to_string(length) +
                                       " bytes is shorter than a frame header");
    }
    const auto header = decode_header_for(header_bytes, destination, stages);
    require_frame_length(header, length);
    const auto checksum = timed_stage(stages.deserialize, [&] {
      transport::frame_checksum hash;
      hash.update(landing);
      return hash.digest();
    });
    transport::verify_frame_checksum(header, checksum);
    finish_landing(destination, landing, stages);
  }

 private:
  std::vector<unique_fd> descriptors_;  // kept open for as long as the queue uses them
  process_queue queue_;
  std::vector<std::byte> staging_;
};

std::unique_ptr<sender_session> make_queue_sender(const tensor_memory& source) {
  return std::make_unique<queue_sender>(source.bytes());
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

floor_terms queue_floor(const transfer_point& at, compute_target target, const measured_run&) {
  return host_path_floor(ceiling::pipe, at, target);
}

}  // namespace

constinit const transfer_variant queue_variant{
    .row = {.name = "queue",
            .targets = device_and_host,
            .clock = transfer_clock,
            .cold = transfer_cold,
            .setup = set_up_transfer<queue_variant>,
            .floor = queue_floor},
    .make_sender = make_queue_sender,
    .open_receiver = open_queue_receiver,
};

}  // namespace handoff::patterns

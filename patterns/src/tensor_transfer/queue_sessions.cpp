// queue: the frame travels through a multiprocessing-style queue, like the article's
// multiprocessing.Queue(), as one message. The put writes it piece by piece, hashing each piece
// just before it goes (framing.hpp), splicing it into the queue's pipe where it stays put long
// enough (process_queue::put_streamed); the get lands each piece straight where the tensor lands
// (no allocation per message) and hashes it there. The header and the trailer's checksum are
// checked once the whole message is in, so a malformed frame never leaves the queue half read.

#include <memory>
#include <optional>

#include "declared_variants.hpp"
#include "handoff/patterns/tensor_transfer/framing.hpp"
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
        {.max_message_bytes = transport::frame_wire_bytes(bytes_), .purpose = "tensor-queue"}));
    const auto descriptors = queue_->descriptors();
    announce.descriptors = static_cast<std::uint32_t>(descriptors.size());
    announce.bytes = bytes_;
    control.send_record(announce, deadline);
    for (const int descriptor : descriptors)
      control.send_fd(descriptor, deadline);
  }

  void send(connection&, const tensor_memory& source, stage_times& stages,
            deadline_clock::time_point deadline, const transport::peer_watch& watch) override {
    frame_writer frame(source, stages);
    queue_->put_streamed(
        frame.frame_bytes(), [&] { return frame.next(); }, deadline, watch,
        frame.piece_stays_for());
  }

 private:
  std::uint64_t bytes_;
  std::optional<process_queue> queue_;
};

class queue_receiver final : public receiver_session {
 public:
  queue_receiver(std::vector<unique_fd> descriptors, process_queue queue)
      : descriptors_(std::move(descriptors)), queue_(std::move(queue)) {}

  void receive(connection&, tensor_memory& destination, stage_times& stages,
               deadline_clock::time_point deadline, const transport::peer_watch& watch) override {
    frame_reader frame(destination, stages);
    const auto length = queue_.get_streamed(
        frame.frame_bytes(),
        {.place = [&](std::uint64_t, std::uint64_t) { return frame.place(); },
         .landed = [&](std::span<const std::byte> piece) { frame.landed(piece.size()); }},
        deadline, watch);
    frame.check_header();
    require_frame_length(frame, length);
    frame.finish();
  }

 private:
  std::vector<unique_fd> descriptors_;  // kept open for as long as the queue uses them
  process_queue queue_;
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

constinit const transfer_row queue_variant{
    .name = "queue",
    .description = "the tensor framed and checksummed through a multiprocessing-style queue",
    .recipe = true,
    .targets = device_and_host,
    .clock = transfer_clock,
    .cold = transfer_cold,
    .setup = set_up_transfer<queue_variant>,
    .floor = queue_floor,
    .specifics = {.make_sender = make_queue_sender, .open_receiver = open_queue_receiver}};

}  // namespace handoff::patterns

// pipe: the frame travels through a duplex pipe (a socketpair), like the article's
// multiprocessing.Pipe(). Both sides stream it piece by piece (framing.hpp): the sender hashes
// each piece just before it writes it, the receiver reads each piece straight into where it lands
// and hashes it there, and the trailer's checksum is checked before the tensor is accepted.

#include <memory>
#include <optional>

#include "declared_variants.hpp"
#include "handoff/patterns/tensor_transfer/framing.hpp"
#include "handoff/patterns/tensor_transfer/transfer_floors.hpp"
#include "handoff/patterns/tensor_transfer/variants.hpp"

namespace handoff::patterns {

using transport::connection;
using transport::deadline_clock;

namespace {

class pipe_sender final : public sender_session {
 public:
  void open(connection& control, command_record announce,
            deadline_clock::time_point deadline) override {
    auto [ours, theirs] = connection::make_pair("tensor receiver (pipe)", "tensor sender (pipe)");
    announce.descriptors = 1;
    control.send_record(announce, deadline);
    control.send_fd(theirs.native_handle(), deadline);
    channel_.emplace(std::move(ours));
  }

  void send(connection&, const tensor_memory& source, stage_times& stages,
            deadline_clock::time_point deadline, const transport::peer_watch&) override {
    frame_writer frame(source, stages);
    channel_->send_streamed(
        frame.frame_bytes(), [&] { return frame.next(); }, deadline);
  }

 private:
  std::optional<connection> channel_;
};

class pipe_receiver final : public receiver_session {
 public:
  explicit pipe_receiver(transport::unique_fd socket)
      : channel_(std::move(socket), "tensor sender (pipe)") {}

  void receive(connection&, tensor_memory& destination, stage_times& stages,
               deadline_clock::time_point deadline, const transport::peer_watch&) override {
    frame_reader frame(destination, stages);
    const auto length = channel_.receive_length(deadline, frame.frame_bytes());
    if (length < transport::frame_header_bytes) {
      throw transport::frame_truncated("a message of " + std::to_string(length) +
                                       " bytes is shorter than a frame header");
    }
    // The header first, validated before any of the payload is taken.
    const auto header = frame.place();
    channel_.receive_body(header, deadline);
    frame.landed(header.size());
    frame.check_header();
    require_frame_length(frame, length);
    for (auto piece = frame.place(); !piece.empty(); piece = frame.place()) {
      channel_.receive_body(piece, deadline);
      frame.landed(piece.size());
    }
    frame.finish();
  }

 private:
  connection channel_;
};

std::unique_ptr<sender_session> make_pipe_sender(const tensor_memory&) {
  return std::make_unique<pipe_sender>();
}

std::unique_ptr<receiver_session> open_pipe_receiver(const command_record&, connection& control,
                                                     deadline_clock::time_point deadline) {
  return std::make_unique<pipe_receiver>(control.receive_fd(deadline));
}

floor_terms pipe_floor(const transfer_point& at, compute_target target, const measured_run&) {
  return host_path_floor(ceiling::pipe, at, target);
}

}  // namespace

constinit const transfer_row pipe_variant{
    .name = "pipe",
    .description = "the same frame through a duplex pipe (a socketpair)",
    .recipe = true,
    .targets = device_and_host,
    .clock = transfer_clock,
    .cold = transfer_cold,
    .setup = set_up_transfer<pipe_variant>,
    .floor = pipe_floor,
    .specifics = {.make_sender = make_pipe_sender, .open_receiver = open_pipe_receiver}};

}  // namespace handoff::patterns

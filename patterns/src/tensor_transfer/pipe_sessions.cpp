// pipe: the frame travels through a duplex pipe (a socketpair), like the article's
// multiprocessing.Pipe(). The receiver streams the payload straight into where it lands, hashing
// each piece as it arrives.

#include <algorithm>
#include <optional>

#include "handoff/patterns/tensor_transfer/framing.hpp"
#include "handoff/patterns/tensor_transfer/timed_stage.hpp"
#include "handoff/patterns/tensor_transfer/transfer_floors.hpp"
#include "handoff/patterns/tensor_transfer/variants.hpp"

namespace handoff::patterns {

using transport::connection;
using transport::deadline_clock;

namespace {

constexpr std::size_t receive_piece_bytes = 1 << 20;

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
    const auto framed = frame_source(source, staging_, stages);
    channel_->send_parts({framed.header, framed.payload}, deadline);
  }

 private:
  std::optional<connection> channel_;
  std::vector<std::byte> staging_;
};

class pipe_receiver final : public receiver_session {
 public:
  explicit pipe_receiver(transport::unique_fd socket)
      : channel_(std::move(socket), "tensor sender (pipe)") {}

  void receive(connection&, tensor_memory& destination, stage_times& stages,
               deadline_clock::time_point deadline, const transport::peer_watch&) override {
    const auto length =
        channel_.receive_length(deadline, transport::frame_header_bytes + destination.bytes());
    transport::frame_header_bytes_array header_bytes;
    channel_.receive_body(header_bytes, deadline);
    const auto header = decode_header_for(header_bytes, destination, stages);
    require_frame_length(header, length);
    const auto landing = landing_for(destination, staging_);
    transport::frame_checksum checksum;
    for (std::size_t offset = 0; offset < landing.size(); offset += receive_piece_bytes) {
      const auto piece =
          landing.subspan(offset, std::min(receive_piece_bytes, landing.size() - offset));
      channel_.receive_body(piece, deadline);
      timed_stage(stages.deserialize, [&] { checksum.update(piece); });
    }
    transport::verify_frame_checksum(header, checksum.digest());
    finish_landing(destination, landing, stages);
  }

 private:
  connection channel_;
  std::vector<std::byte> staging_;
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

constinit const transfer_variant pipe_variant{
    .row = {.name = "pipe",
            .targets = device_and_host,
            .clock = transfer_clock,
            .cold = transfer_cold,
            .setup = set_up_transfer<pipe_variant>,
            .floor = pipe_floor},
    .make_sender = make_pipe_sender,
    .open_receiver = open_pipe_receiver,
};

}  // namespace handoff::patterns

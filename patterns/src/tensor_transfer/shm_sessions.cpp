// shm: the frame is copied through a ring of slots in shared memory, like the article's mmap
// example with the synchronisation it leaves out. The header goes in a slot of its own, then the
// payload in slot-sized chunks; the receiver copies each chunk out (hashing it) and frees the slot,
// so sender and receiver copy at the same time.

#include <algorithm>
#include <cstring>
#include <optional>

#include "handoff/patterns/tensor_transfer/framing.hpp"
#include "handoff/patterns/tensor_transfer/timed_stage.hpp"
#include "handoff/patterns/tensor_transfer/transfer_floors.hpp"
#include "handoff/patterns/tensor_transfer/variants.hpp"
#include "handoff/transport/channels/shm_ring.hpp"

namespace handoff::patterns {

using transport::connection;
using transport::deadline_clock;
using transport::peer_watch;
using transport::shm_ring;

namespace {

constexpr std::size_t shm_slot_count = 8;
constexpr std::size_t shm_slot_bytes = 4 << 20;
constexpr std::uint64_t header_tag = 1;
constexpr std::uint64_t payload_tag = 2;

class shm_sender final : public sender_session {
 public:
  void open(connection& control, command_record announce,
            deadline_clock::time_point deadline) override {
    ring_.emplace(shm_ring::create(
        {.slot_count = shm_slot_count, .slot_bytes = shm_slot_bytes, .purpose = "tensor-shm"}));
    announce.descriptors = 1;
    control.send_record(announce, deadline);
    control.send_fd(ring_->descriptor(), deadline);
  }

  void send(connection&, const tensor_memory& source, stage_times& stages,
            deadline_clock::time_point deadline, const peer_watch& watch) override {
    const auto framed = frame_source(source, staging_, stages);
    put_chunk(framed.header, header_tag, deadline, watch);
    for (std::size_t offset = 0; offset < framed.payload.size(); offset += ring_->slot_bytes()) {
      const auto length = std::min(ring_->slot_bytes(), framed.payload.size() - offset);
      put_chunk(framed.payload.subspan(offset, length), payload_tag, deadline, watch);
    }
  }

 private:
  void put_chunk(std::span<const std::byte> chunk, std::uint64_t tag,
                 deadline_clock::time_point deadline, const peer_watch& watch) {
    const std::size_t slot = ring_->acquire_free(deadline, watch);
    std::memcpy(ring_->slot(slot).data(), chunk.data(), chunk.size());
    ring_->publish(slot, chunk.size(), tag);
  }

  std::optional<shm_ring> ring_;
  std::vector<std::byte> staging_;
};

class shm_receiver final : public receiver_session {
 public:
  shm_receiver(transport::unique_fd descriptor, shm_ring ring)
      : descriptor_(std::move(descriptor)), ring_(std::move(ring)) {}

  void receive(connection&, tensor_memory& destination, stage_times& stages,
               deadline_clock::time_point deadline, const peer_watch& watch) override {
    transport::frame_header_bytes_array header_bytes;
    take_chunk(header_tag, header_bytes, deadline, watch);
    const auto header = decode_header_for(header_bytes, destination, stages);
    const auto landing = landing_for(destination, staging_);
    transport::frame_checksum checksum;
    for (std::size_t offset = 0; offset < landing.size(); offset += ring_.slot_bytes()) {
      const auto piece =
          landing.subspan(offset, std::min(ring_.slot_bytes(), landing.size() - offset));
      take_chunk(payload_tag, piece, deadline, watch);
      timed_stage(stages.deserialize, [&] { checksum.update(piece); });
    }
    transport::verify_frame_checksum(header, checksum.digest());
    finish_landing(destination, landing, stages);
  }

 private:
  void take_chunk(std::uint64_t tag, std::span<std::byte> into, deadline_clock::time_point deadline,
                  const peer_watch& watch) {
    const auto filled = ring_.acquire_filled(deadline, watch);
    if (filled.tag != tag || filled.used_bytes != into.size()) {
      ring_.release(filled.index);
      throw transport::frame_truncated(
          "shared-memory slot holds " + std::to_string(filled.used_bytes) + " bytes tagged " +
          std::to_string(filled.tag) + "; expected " + std::to_string(into.size()) +
          " bytes tagged " + std::to_string(tag));
    }
    std::memcpy(into.data(), ring_.slot(filled.index).data(), into.size());
    ring_.release(filled.index);
  }

  transport::unique_fd descriptor_;
  shm_ring ring_;
  std::vector<std::byte> staging_;
};

std::unique_ptr<sender_session> make_shm_sender(const tensor_memory&) {
  return std::make_unique<shm_sender>();
}

std::unique_ptr<receiver_session> open_shm_receiver(const command_record&, connection& control,
                                                    deadline_clock::time_point deadline) {
  auto descriptor = control.receive_fd(deadline);
  auto ring = shm_ring::attach(descriptor.get());
  return std::make_unique<shm_receiver>(std::move(descriptor), std::move(ring));
}

floor_terms shm_floor(const transfer_point& at, compute_target target, const measured_run&) {
  return host_path_floor(ceiling::shm_memcpy, at, target);
}

}  // namespace

constinit const transfer_variant shm_variant{
    .row = {.name = "shm",
            .targets = device_and_host,
            .clock = transfer_clock,
            .cold = transfer_cold,
            .setup = set_up_transfer<shm_variant>,
            .floor = shm_floor},
    .make_sender = make_shm_sender,
    .open_receiver = open_shm_receiver,
};

}  // namespace handoff::patterns

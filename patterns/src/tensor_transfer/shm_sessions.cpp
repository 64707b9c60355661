// shm: the frame is copied through a ring of slots in shared memory, like the article's mmap
// example with the synchronisation it leaves out. The header goes in a slot of its own, then the
// payload one piece per slot, then the trailer (framing.hpp): the sender hashes each piece just
// before it copies it in, the receiver copies each piece out, hashes it where it landed and frees
// the slot, so sender and receiver copy at the same time.

#include <cstring>
#include <optional>
#include <string>

#include "declared_variants.hpp"
#include "handoff/patterns/tensor_transfer/framing.hpp"
#include "handoff/patterns/tensor_transfer/transfer_floors.hpp"
#include "handoff/patterns/tensor_transfer/variants.hpp"
#include "handoff/transport/channels/shm_ring.hpp"

namespace handoff::patterns {

using transport::connection;
using transport::deadline_clock;
using transport::peer_watch;
using transport::shm_ring;

namespace {

// One frame piece per slot: a slot is filled from, and emptied into, memory still in cache.
constexpr std::size_t shm_slot_count = 32;
constexpr std::size_t shm_slot_bytes = frame_piece_bytes;

// Each slot says which part of the frame it holds.
std::uint64_t tag_of(frame_part part) {
  return static_cast<std::uint64_t>(part) + 1;  // header 1, payload 2, trailer 3
}

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
    frame_writer frame(source, stages, shm_slot_bytes);
    while (frame.next_part() != frame_part::done) {
      const std::uint64_t tag = tag_of(frame.next_part());
      const auto piece = frame.next();
      const std::size_t slot = ring_->acquire_free(deadline, watch);
      std::memcpy(ring_->slot(slot).data(), piece.data(), piece.size());
      ring_->publish(slot, piece.size(), tag);
    }
  }

 private:
  std::optional<shm_ring> ring_;
};

class shm_receiver final : public receiver_session {
 public:
  shm_receiver(transport::unique_fd descriptor, shm_ring ring)
      : descriptor_(std::move(descriptor)), ring_(std::move(ring)) {}

  void receive(connection&, tensor_memory& destination, stage_times& stages,
               deadline_clock::time_point deadline, const peer_watch& watch) override {
    frame_reader frame(destination, stages, shm_slot_bytes);
    // The header first, validated before any of the payload is taken.
    take_piece(frame, deadline, watch);
    frame.check_header();
    while (frame.next_part() != frame_part::done)
      take_piece(frame, deadline, watch);
    frame.finish();
  }

 private:
  void take_piece(frame_reader& frame, deadline_clock::time_point deadline,
                  const peer_watch& watch) {
    const std::uint64_t tag = tag_of(frame.next_part());
    const auto into = frame.place();
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
    frame.landed(into.size());
  }

  transport::unique_fd descriptor_;
  shm_ring ring_;
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

constinit const transfer_row shm_variant{
    .name = "shm",
    .description = "the same frame through a ring of shared-memory slots",
    .recipe = true,
    .targets = device_and_host,
    .clock = transfer_clock,
    .cold = transfer_cold,
    .setup = set_up_transfer<shm_variant>,
    .floor = shm_floor,
    .specifics = {.make_sender = make_shm_sender, .open_receiver = open_shm_receiver}};

}  // namespace handoff::patterns

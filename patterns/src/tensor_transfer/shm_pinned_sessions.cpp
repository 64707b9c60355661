// shm_pinned: device-to-host straight into page-locked shared memory, and host-to-device straight
// out of it, in slot-sized chunks. Both processes register the ring's slots with the driver, so
// every copy is asynchronous at the pinned rate, and each side keeps several chunks in flight: the
// sender's device-to-host copies and the receiver's host-to-device copies overlap on the bus.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <deque>
#include <optional>
#include <vector>

#include "declared_variants.hpp"
#include "handoff/host_registration.hpp"
#include "handoff/patterns/tensor_transfer/transfer_floors.hpp"
#include "handoff/patterns/tensor_transfer/variants.hpp"
#include "handoff/stream.hpp"
#include "handoff/transport/channels/shm_ring.hpp"

namespace handoff::patterns {

using transport::connection;
using transport::deadline_clock;
using transport::shm_ring;

namespace {

constexpr std::size_t pinned_slot_count = 8;
constexpr std::size_t pinned_slot_bytes = 8 << 20;
// Chunks each side keeps in flight before it waits for the oldest one.
constexpr std::size_t copies_in_flight = 3;
// A tensor that fits one slot would cross in one chunk, its host-to-device copy starting only
// when its whole device-to-host copy is done, far from its floor. Cut into at least this many
// chunks, the two directions overlap on the bus, each chunk a multiple of 64 KiB and no smaller
// than 256 KiB, below which the per-chunk hand-off costs more than it hides. More chunks overlap
// more of the copies but each costs a hand-off (two copy calls, two events, a publish): 4 MiB
// crossed fastest in 4, and each chunk past that cost more than it hid (figures:
// docs/design/measured-along-the-way.md, "How many chunks shm_pinned cuts a transfer into").
constexpr std::size_t least_chunks = 4;
constexpr std::size_t chunk_granule = 64 << 10;
constexpr std::size_t smallest_chunk = 256 << 10;

std::size_t chunk_bytes_for(std::size_t tensor_bytes, std::size_t slot_bytes) {
  const std::size_t even_share = (tensor_bytes + least_chunks - 1) / least_chunks;
  const std::size_t rounded = (even_share + chunk_granule - 1) / chunk_granule * chunk_granule;
  return std::min(slot_bytes, std::max(smallest_chunk, rounded));
}

struct chunk_in_flight {
  std::size_t slot;
  std::uint64_t bytes;
};

// The ring's slots, page-locked in this process, with one completion event per slot.
class registered_ring {
 public:
  explicit registered_ring(shm_ring ring)
      : ring_(std::move(ring)), registration_(ring_.slot_region()), events_(ring_.slot_count()) {}
  shm_ring& ring() { return ring_; }
  const event& done(std::size_t slot) const { return events_[slot]; }
  const stream& copies() const { return stream_; }

 private:
  shm_ring ring_;
  host_registration registration_;
  std::vector<event> events_;
  stream stream_;
};

class shm_pinned_sender final : public sender_session {
 public:
  void open(connection& control, command_record announce,
            deadline_clock::time_point deadline) override {
    auto ring = shm_ring::create({.slot_count = pinned_slot_count,
                                  .slot_bytes = pinned_slot_bytes,
                                  .purpose = "tensor-pinned"});
    const int descriptor = ring.descriptor();
    announce.descriptors = 1;
    control.send_record(announce, deadline);
    control.send_fd(descriptor, deadline);
    // Registering after the hand-off lets both processes page-lock their mappings at once.
    ring_.emplace(std::move(ring));
  }

  void send(connection&, const tensor_memory& source, stage_times&,
            deadline_clock::time_point deadline, const transport::peer_watch& watch) override {
    auto& ring = ring_->ring();
    std::deque<chunk_in_flight> in_flight;
    const auto publish_oldest = [&] {
      const auto chunk = in_flight.front();
      in_flight.pop_front();
      ring_->done(chunk.slot).synchronize();
      ring.publish(chunk.slot, chunk.bytes);
    };
    const std::size_t chunk_bytes = chunk_bytes_for(source.bytes(), ring.slot_bytes());
    for (std::size_t offset = 0; offset < source.bytes(); offset += chunk_bytes) {
      const std::uint64_t bytes = std::min(chunk_bytes, source.bytes() - offset);
      const std::size_t slot = ring.acquire_free(deadline, watch);
      HANDOFF_CUDA_CHECK(cudaMemcpyAsync(ring.slot(slot).data(), source.device_data() + offset,
                                         bytes, cudaMemcpyDeviceToHost, ring_->copies().get()));
      ring_->done(slot).record(ring_->copies().get());
      in_flight.push_back({slot, bytes});
      if (in_flight.size() >= copies_in_flight) publish_oldest();
    }
    while (!in_flight.empty())
      publish_oldest();
  }

 private:
  std::optional<registered_ring> ring_;
};

class shm_pinned_receiver final : public receiver_session {
 public:
  shm_pinned_receiver(transport::unique_fd descriptor, shm_ring ring)
      : descriptor_(std::move(descriptor)), ring_(std::move(ring)) {}

  void receive(connection&, tensor_memory& destination, stage_times&,
               deadline_clock::time_point deadline, const transport::peer_watch& watch) override {
    auto& ring = ring_.ring();
    std::deque<std::size_t> in_flight;
    const auto release_oldest = [&] {
      const std::size_t slot = in_flight.front();
      in_flight.pop_front();
      ring_.done(slot).synchronize();
      ring.release(slot);
    };
    for (std::uint64_t received = 0; received < destination.bytes();) {
      const auto filled = ring.acquire_filled(deadline, watch);
      if (filled.used_bytes == 0 || filled.used_bytes > destination.bytes() - received) {
        ring.release(filled.index);
        throw transfer_protocol_error("a chunk of " + std::to_string(filled.used_bytes) +
                                      " bytes at offset " + std::to_string(received) +
                                      " does not fit a tensor of " +
                                      std::to_string(destination.bytes()) + " bytes");
      }
      HANDOFF_CUDA_CHECK(cudaMemcpyAsync(destination.device_data() + received,
                                         ring.slot(filled.index).data(), filled.used_bytes,
                                         cudaMemcpyHostToDevice, ring_.copies().get()));
      ring_.done(filled.index).record(ring_.copies().get());
      in_flight.push_back(filled.index);
      received += filled.used_bytes;
      if (in_flight.size() >= copies_in_flight) release_oldest();
    }
    while (!in_flight.empty())
      release_oldest();
  }

 private:
  transport::unique_fd descriptor_;
  registered_ring ring_;
};

std::unique_ptr<sender_session> make_shm_pinned_sender(const tensor_memory&) {
  return std::make_unique<shm_pinned_sender>();
}

std::unique_ptr<receiver_session> open_shm_pinned_receiver(const command_record&,
                                                           connection& control,
                                                           deadline_clock::time_point deadline) {
  auto descriptor = control.receive_fd(deadline);
  auto ring = shm_ring::attach(descriptor.get());
  return std::make_unique<shm_pinned_receiver>(std::move(descriptor), std::move(ring));
}

// Pipelined: both copies run at once, so the slower direction (or the bus carrying both) bounds it.
floor_terms shm_pinned_floor(const transfer_point& at, compute_target, const measured_run&) {
  const auto bytes = static_cast<double>(at.bytes);
  auto floor = floor_terms{}
                   .add_bytes(ceiling::d2h_pinned, bytes)
                   .add_bytes(ceiling::h2d_pinned, bytes)
                   .add_bytes(ceiling::bidirectional_pinned, 2 * bytes);
  floor.overlapped = true;
  return floor;
}

}  // namespace

constinit const transfer_row shm_pinned_variant{
    .name = "shm_pinned",
    .description = "device to host straight into registered shared memory and back up, in chunks",
    .targets = device_only,
    .clock = transfer_clock,
    .cold = transfer_cold,
    .setup = set_up_transfer<shm_pinned_variant>,
    .floor = shm_pinned_floor,
    .specifics = {.make_sender = make_shm_pinned_sender,
                  .open_receiver = open_shm_pinned_receiver}};

}  // namespace handoff::patterns

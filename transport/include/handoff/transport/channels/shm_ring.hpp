#pragma once
// A ring of fixed-size slots in one shareable shared-memory segment, for exactly ONE
// producer and ONE consumer, each in any process. The producer fills a free slot in place and
// publishes it; the consumer takes filled slots in the order they were published and releases
// them. Only slot numbers and sizes cross between the processes, never the payload.
//
// Layout: a header page (geometry, the two counters, the close flag, one record per slot), then
// the slots. The slot region starts on a page boundary and every slot is a whole number of pages,
// so a GPU process can cudaHostRegister slot_region() once and copy straight out of any slot.
//
// Synchronisation is lock-free: the producer alone advances "published" and the consumer alone
// advances "released", and waiters sleep on shared futex words. So a killed peer cannot leave a
// lock behind; it is noticed through the caller's peer_watch, or at the deadline.
// Each side may hold several slots at once (acquire ahead for pipelining), but publishes and
// releases them in the order it acquired them. Several producers or consumers on one ring are not
// supported: put a process_queue of slot numbers in front of it for that.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "handoff/transport/channels/channel_errors.hpp"
#include "handoff/transport/channels/peer_watch.hpp"
#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/shared_memory_segment.hpp"

namespace handoff::transport {

struct shm_ring_options {
  std::size_t slot_count = 4;
  std::size_t slot_bytes = 1 << 22;  // rounded up to whole pages
  std::string purpose = "ring";      // names the ring in errors and its shared-memory segment
};

struct shm_ring_header;
struct shm_ring_slot_record;

class shm_ring {
 public:
  // In the coordinator: zero slots, or a geometry whose size overflows, is channel_geometry_error;
  // a ring the machine cannot give the memory for is shared_memory_full (or
  // shared_memory_too_large).
  static shm_ring create(const shm_ring_options& options);
  // What a worker must inherit.
  int descriptor() const noexcept { return segment_.descriptor(); }
  // In a worker: reads the geometry from the segment's header and checks it against the segment;
  // anything that is not a ring is channel_attach_error or shared_memory_bad_descriptor. fd stays
  // the caller's.
  static shm_ring attach(int fd);

  shm_ring(shm_ring&&) noexcept = default;
  shm_ring& operator=(shm_ring&&) noexcept = default;
  ~shm_ring() = default;

  std::size_t slot_count() const noexcept { return slot_count_; }
  std::size_t slot_bytes() const noexcept { return slot_bytes_; }
  const std::string& purpose() const noexcept { return purpose_; }
  // Every slot, page-aligned and a whole number of pages: what to cudaHostRegister.
  std::span<std::byte> slot_region() const noexcept { return {slots_, slot_count_ * slot_bytes_}; }
  std::span<std::byte> slot(std::size_t index) const;

  // Producer: the next free slot, to fill in place; deadline_exceeded if none frees up in time,
  // channel_closed once the ring is closed.
  std::size_t acquire_free(deadline_clock::time_point deadline, const peer_watch& watch = {});
  // Producer: hands the oldest acquired slot to the consumer. index must be that slot and
  // used_bytes at most slot_bytes() (else channel_usage_error).
  void publish(std::size_t index, std::uint64_t used_bytes, std::uint64_t tag = 0);

  // Consumer.
  struct filled {
    std::size_t index;
    std::uint64_t used_bytes;
    std::uint64_t tag;
  };
  // The oldest published slot not yet taken; deadline_exceeded if none arrives in time. After
  // close, what was published is still delivered, then channel_closed.
  filled acquire_filled(deadline_clock::time_point deadline, const peer_watch& watch = {});
  // Gives the oldest taken slot back to the producer; index must be that slot.
  void release(std::size_t index);

  // Either side: every wait, now or later, ends in channel_closed (a consumer first drains what was
  // already published). Releasing still works, so cleanup paths need no special case.
  void close() noexcept;
  bool closed() const noexcept;

 private:
  shm_ring(shared_memory_segment segment, std::size_t slot_count, std::size_t slot_bytes,
           std::size_t slots_offset, std::string purpose);
  shm_ring_header& header() const noexcept;
  shm_ring_slot_record& record(std::size_t index) const noexcept;
  std::string describe_state() const;

  shared_memory_segment segment_;
  std::size_t slot_count_ = 0;
  std::size_t slot_bytes_ = 0;
  std::byte* slots_ = nullptr;
  std::string purpose_;
  // Slots this handle has acquired and not yet published (producer) or released (consumer).
  std::uint64_t held_free_ = 0;
  std::uint64_t held_filled_ = 0;
  // This side's own counter (published for the producer, released for the consumer) as it last
  // stored it, read from the header at its first acquire. Only this side advances it, so a header
  // that says otherwise was written by the peer: channel_corrupted, never a usage error of ours.
  std::optional<std::uint64_t> published_;
  std::optional<std::uint64_t> released_;
};

}  // namespace handoff::transport

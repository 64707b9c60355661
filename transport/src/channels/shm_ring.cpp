#include "handoff/transport/channels/shm_ring.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <new>
#include <optional>
#include <string>

#include "handoff/transport/channels/process_shared_sync.hpp"
#include "shm_ring_layout.hpp"

namespace handoff::transport {
namespace {

// This side's own counter: the header's value at this handle's first acquire, then what this side
// stored. Only this side advances it, so a header that disagrees was written by the peer.
std::uint64_t own_counter(const std::atomic<std::uint64_t>& shared,
                          std::optional<std::uint64_t>& own, const std::string& purpose,
                          const char* counter) {
  const std::uint64_t in_header = shared.load();
  if (!own) own = in_header;
  if (in_header != *own) {
    throw channel_corrupted("ring " + purpose + ": the peer overwrote this side's count of slots " +
                            counter + " (" + std::to_string(in_header) + "; it is " +
                            std::to_string(*own) + ")");
  }
  return *own;
}

}  // namespace

shm_ring::shm_ring(shared_memory_segment segment, std::size_t slot_count, std::size_t slot_bytes,
                   std::size_t slots_offset, std::string purpose)
    : segment_(std::move(segment)),
      slot_count_(slot_count),
      slot_bytes_(slot_bytes),
      slots_(segment_.bytes().data() + slots_offset),
      purpose_(std::move(purpose)) {}

shm_ring shm_ring::create(const shm_ring_options& options) {
  const ring_geometry geometry = plan_ring_geometry(options.slot_count, options.slot_bytes);
  auto segment = shared_memory_segment::create_shareable(geometry.total_bytes, options.purpose);
  auto* header = new (segment.bytes().data()) shm_ring_header{};
  header->magic = shm_ring_header::expected_magic;
  header->version = shm_ring_header::expected_version;
  header->slot_count = geometry.slot_count;
  header->slot_bytes = geometry.slot_bytes;
  header->slots_offset = geometry.slots_offset;
  header->total_bytes = geometry.total_bytes;
  const std::size_t name_length = std::min(options.purpose.size(), sizeof(header->purpose) - 1);
  std::copy_n(options.purpose.data(), name_length, header->purpose);
  return shm_ring(std::move(segment), geometry.slot_count, geometry.slot_bytes,
                  geometry.slots_offset, options.purpose);
}

shm_ring shm_ring::attach(int fd) {
  auto segment = shared_memory_segment::attach(fd, sizeof(shm_ring_header));
  const auto& header = *reinterpret_cast<const shm_ring_header*>(segment.bytes().data());
  const std::string context = "attaching a ring from descriptor " + std::to_string(fd) + ": ";
  if (header.magic != shm_ring_header::expected_magic ||
      header.version != shm_ring_header::expected_version) {
    throw channel_attach_error(context + "shared memory, but not a ring (bad magic or version)");
  }
  ring_geometry expected{};
  try {
    expected = plan_ring_geometry(header.slot_count, header.slot_bytes);
  } catch (const channel_geometry_error& error) {
    throw channel_attach_error(context +
                               "its header describes an impossible ring: " + error.what());
  }
  if (expected.slot_bytes != header.slot_bytes || expected.slots_offset != header.slots_offset ||
      expected.total_bytes != header.total_bytes) {
    throw channel_attach_error(context + "its header's layout is inconsistent (slot bytes " +
                               std::to_string(header.slot_bytes) + ", slots at " +
                               std::to_string(header.slots_offset) + ", total " +
                               std::to_string(header.total_bytes) + ")");
  }
  if (segment.bytes().size() < expected.total_bytes) {
    throw channel_attach_error(
        context + "the header describes " + describe_byte_count(expected.total_bytes) +
        " but the segment holds only " + describe_byte_count(segment.bytes().size()));
  }
  std::string purpose(header.purpose, strnlen(header.purpose, sizeof(header.purpose)));
  return shm_ring(std::move(segment), expected.slot_count, expected.slot_bytes,
                  expected.slots_offset, std::move(purpose));
}

shm_ring_header& shm_ring::header() const noexcept {
  return *reinterpret_cast<shm_ring_header*>(segment_.bytes().data());
}

shm_ring_slot_record& shm_ring::record(std::size_t index) const noexcept {
  auto* records =
      reinterpret_cast<shm_ring_slot_record*>(segment_.bytes().data() + sizeof(shm_ring_header));
  return records[index];
}

std::span<std::byte> shm_ring::slot(std::size_t index) const {
  if (index >= slot_count_) {
    throw channel_usage_error("ring " + purpose_ + ": slot " + std::to_string(index) +
                              " of a ring of " + std::to_string(slot_count_));
  }
  return {slots_ + index * slot_bytes_, slot_bytes_};
}

std::string shm_ring::describe_state() const {
  // snprintf rather than a chain of "+": GCC 12 reports a false -Wrestrict on the chain.
  char state[96];
  std::snprintf(state, sizeof(state), "(%llu published, %llu released, %zu slots)",
                static_cast<unsigned long long>(header().published.load()),
                static_cast<unsigned long long>(header().released.load()), slot_count_);
  return state;
}

std::size_t shm_ring::acquire_free(deadline_clock::time_point deadline, const peer_watch& watch) {
  auto& shared = header();
  // Only this producer advances published, so its own count of held slots is exact.
  const std::uint64_t next =
      own_counter(shared.published, published_, purpose_, "published") + held_free_;
  const auto has_room = [&] {
    if (shared.closed.load()) {
      throw channel_closed("ring " + purpose_ + " is closed: no free slot will come");
    }
    const std::uint64_t in_use = next - shared.released.load(std::memory_order_acquire);
    if (in_use > slot_count_) {
      throw channel_corrupted("ring " + purpose_ +
                              ": the consumer released more slots than were "
                              "published " +
                              describe_state());
    }
    return in_use < slot_count_;
  };
  if (!wait_until(shared.freed, has_room, deadline, watch)) {
    throw deadline_exceeded("ring " + purpose_ +
                            ": no free slot before the deadline; the consumer released none " +
                            describe_state());
  }
  ++held_free_;
  return static_cast<std::size_t>(next % slot_count_);
}

void shm_ring::publish(std::size_t index, std::uint64_t used_bytes, std::uint64_t tag) {
  auto& shared = header();
  if (held_free_ == 0 || index != *published_ % slot_count_) {
    throw channel_usage_error("ring " + purpose_ + ": publish of slot " + std::to_string(index) +
                              (held_free_ == 0 ? ", which was not acquired"
                                               : " out of order; the oldest acquired slot is " +
                                                     std::to_string(*published_ % slot_count_)));
  }
  const std::uint64_t published = own_counter(shared.published, published_, purpose_, "published");
  if (used_bytes > slot_bytes_) {
    throw channel_usage_error("ring " + purpose_ + ": publish of " + std::to_string(used_bytes) +
                              " bytes in a slot of " + std::to_string(slot_bytes_));
  }
  if (shared.closed.load()) {
    --held_free_;
    throw channel_closed("ring " + purpose_ + " is closed: slot " + std::to_string(index) +
                         " was not published");
  }
  record(index) = {used_bytes, tag};
  // Release: the consumer that sees the new count also sees the slot's bytes and its record.
  shared.published.store(published + 1, std::memory_order_release);
  published_ = published + 1;
  --held_free_;
  wake_all(shared.filled);
}

shm_ring::filled shm_ring::acquire_filled(deadline_clock::time_point deadline,
                                          const peer_watch& watch) {
  auto& shared = header();
  // Only this consumer advances released, so its own count of held slots is exact.
  const std::uint64_t released = own_counter(shared.released, released_, purpose_, "released");
  const std::uint64_t next = released + held_filled_;
  const auto has_filled = [&] {
    // closed is read first: a producer that publishes and then closes is drained completely.
    const bool was_closed = shared.closed.load() != 0;
    const std::uint64_t published = shared.published.load(std::memory_order_acquire);
    if (published - released > slot_count_) {
      throw channel_corrupted("ring " + purpose_ +
                              ": the producer published more slots than "
                              "exist " +
                              describe_state());
    }
    if (next < published) return true;
    if (was_closed) {
      throw channel_closed("ring " + purpose_ + " is closed and every published slot was taken");
    }
    return false;
  };
  if (!wait_until(shared.filled, has_filled, deadline, watch)) {
    throw deadline_exceeded("ring " + purpose_ +
                            ": no filled slot before the deadline; the producer published none " +
                            describe_state());
  }
  const auto index = static_cast<std::size_t>(next % slot_count_);
  const shm_ring_slot_record published_record = record(index);
  if (published_record.used_bytes > slot_bytes_) {
    throw channel_corrupted("ring " + purpose_ + ": slot " + std::to_string(index) + " claims " +
                            std::to_string(published_record.used_bytes) + " bytes in a slot of " +
                            std::to_string(slot_bytes_));
  }
  ++held_filled_;
  return {index, published_record.used_bytes, published_record.tag};
}

void shm_ring::release(std::size_t index) {
  auto& shared = header();
  if (held_filled_ == 0 || index != *released_ % slot_count_) {
    throw channel_usage_error("ring " + purpose_ + ": release of slot " + std::to_string(index) +
                              (held_filled_ == 0 ? ", which was not acquired"
                                                 : " out of order; the oldest taken slot is " +
                                                       std::to_string(*released_ % slot_count_)));
  }
  const std::uint64_t released = own_counter(shared.released, released_, purpose_, "released");
  // Release: the producer that sees the slot free also sees that this side is done reading it.
  shared.released.store(released + 1, std::memory_order_release);
  released_ = released + 1;
  --held_filled_;
  wake_all(shared.freed);
}

void shm_ring::close() noexcept {
  auto& shared = header();
  shared.closed.store(1);
  wake_all(shared.filled);
  wake_all(shared.freed);
}

bool shm_ring::closed() const noexcept {
  return header().closed.load() != 0;
}

}  // namespace handoff::transport

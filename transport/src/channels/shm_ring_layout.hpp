#pragma once
// How an shm_ring lays out its segment: one header (page-rounded, with a record per slot), then
// the slots, each a whole number of pages.

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "handoff/transport/channels/process_shared_sync.hpp"

namespace handoff::transport {

inline constexpr std::size_t ring_page_bytes = 4096;
// Far beyond any useful ring, and it keeps the header to a few MiB at most.
inline constexpr std::size_t ring_max_slot_count = std::size_t{1} << 16;

struct shm_ring_header {
  static constexpr std::uint64_t expected_magic = 0x474e4952464f4f48;  // "HOOFRING"
  static constexpr std::uint32_t expected_version = 1;

  // Written once by the creator; attach checks them against the segment.
  std::uint64_t magic = 0;
  std::uint32_t version = 0;
  std::uint32_t unused = 0;
  std::uint64_t slot_count = 0;
  std::uint64_t slot_bytes = 0;
  std::uint64_t slots_offset = 0;
  std::uint64_t total_bytes = 0;
  char purpose[64] = {};

  // Each counter has one writer and sits on a cache line of its own, away from the other side's.
  alignas(64) std::atomic<std::uint64_t> published{0};  // producer: slots published ever
  shared_wakeup filled;                                 // after every publish, and on close
  alignas(64) std::atomic<std::uint64_t> released{0};   // consumer: slots released ever
  shared_wakeup freed;                                  // after every release, and on close
  alignas(64) std::atomic<std::uint32_t> closed{0};
};

struct shm_ring_slot_record {
  std::uint64_t used_bytes;
  std::uint64_t tag;
};

struct ring_geometry {
  std::size_t slot_count;
  std::size_t slot_bytes;  // rounded up to whole pages
  std::size_t slots_offset;
  std::size_t total_bytes;
};

// The layout for a request; channel_geometry_error for zero slots or sizes that overflow.
ring_geometry plan_ring_geometry(std::size_t slot_count, std::size_t slot_bytes);

}  // namespace handoff::transport

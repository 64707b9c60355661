#include "shm_ring_layout.hpp"

#include "handoff/transport/channels/channel_errors.hpp"
#include "handoff/transport/shared_memory_segment.hpp"

namespace handoff::transport {
namespace {

bool round_up_to_page(std::size_t bytes, std::size_t& rounded) {
  if (__builtin_add_overflow(bytes, ring_page_bytes - 1, &rounded)) return false;
  rounded -= rounded % ring_page_bytes;
  return true;
}

}  // namespace

ring_geometry plan_ring_geometry(std::size_t slot_count, std::size_t slot_bytes) {
  if (slot_count == 0) throw channel_geometry_error("a ring needs at least one slot");
  if (slot_count > ring_max_slot_count) {
    throw channel_geometry_error("a ring of " + std::to_string(slot_count) + " slots; at most " +
                                 std::to_string(ring_max_slot_count));
  }
  if (slot_bytes == 0) throw channel_geometry_error("a ring's slots need at least one byte");
  ring_geometry geometry{slot_count, 0, 0, 0};
  std::size_t slots_total = 0;
  const bool fits =
      round_up_to_page(slot_bytes, geometry.slot_bytes) &&
      round_up_to_page(sizeof(shm_ring_header) + slot_count * sizeof(shm_ring_slot_record),
                       geometry.slots_offset) &&
      !__builtin_mul_overflow(slot_count, geometry.slot_bytes, &slots_total) &&
      !__builtin_add_overflow(geometry.slots_offset, slots_total, &geometry.total_bytes);
  if (!fits) {
    throw channel_geometry_error("a ring of " + std::to_string(slot_count) + " slots of " +
                                 describe_byte_count(slot_bytes) +
                                 " each: the total size overflows");
  }
  return geometry;
}

}  // namespace handoff::transport

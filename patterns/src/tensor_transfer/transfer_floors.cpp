#include "handoff/patterns/tensor_transfer/transfer_floors.hpp"

#include <string>

namespace handoff::patterns {

floor_terms host_path_floor(std::string_view channel, const transfer_point& at,
                            compute_target target) {
  const auto bytes = static_cast<double>(at.bytes);
  floor_terms floor;
  floor.add_bytes(std::string(channel), bytes);
  if (target == compute_target::device) {
    floor.add_bytes(ceiling::d2h_pinned, bytes)
        .add_bytes(ceiling::h2d_pinned, bytes)
        .add_bytes(ceiling::bidirectional_pinned, 2 * bytes);
    floor.overlapped = true;
  }
  return floor;
}

floor_terms shared_device_memory_floor(const transfer_point& at, compute_target,
                                       const measured_run&) {
  return floor_terms{}
      .add_bytes(ceiling::device_copy, 2 * static_cast<double>(at.bytes))
      .add_events(ceiling::launch_sync, 1);
}

}  // namespace handoff::patterns

#include "transfer_floors.hpp"

#include "../harness/traffic.hpp"
#include "handoff/patterns/ceiling_names.hpp"

namespace handoff::bench {

using patterns::transfer_variant;

void add_transfer_floor(benchmark::State& state, transfer_variant variant, double bytes,
                        bool on_device) {
  // The article's three run their stages one after another: the sender brings the tensor to the
  // host, the channel carries it, the receiver takes it back up. Within the channel stage the two
  // sides overlap, so the channel counts once.
  const auto host_path = [&](const char* channel) {
    if (on_device) add_floor_bytes(state, ceiling::d2h_pageable, bytes);
    add_floor_bytes(state, channel, bytes);
    if (on_device) add_floor_bytes(state, ceiling::h2d_pageable, bytes);
  };
  switch (variant) {
    case transfer_variant::queue:
    case transfer_variant::pipe:
      host_path(ceiling::pipe);
      return;
    case transfer_variant::shm:
      host_path(ceiling::shm_memcpy);
      return;
    case transfer_variant::shm_pinned:
      // Pipelined: both copies run at once, so the slower direction (or the bus carrying both)
      // bounds it.
      set_floor_overlapped(state);
      add_floor_bytes(state, ceiling::d2h_pinned, bytes);
      add_floor_bytes(state, ceiling::h2d_pinned, bytes);
      add_floor_bytes(state, ceiling::bidirectional_pinned, 2 * bytes);
      return;
    case transfer_variant::cuda_ipc:
    case transfer_variant::vmm_fd:
      // The receiver reads the shared memory and writes its own copy, then synchronises once.
      add_floor_bytes(state, ceiling::device_copy, 2 * bytes);
      add_floor_events(state, ceiling::launch_sync, 1);
      return;
  }
}

}  // namespace handoff::bench

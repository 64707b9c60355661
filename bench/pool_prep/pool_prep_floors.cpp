#include "pool_prep_floors.hpp"

#include "../ceilings/ceiling_names.hpp"
#include "../harness/traffic.hpp"

namespace handoff::bench::pool_prep {
namespace {

constexpr double float_bytes = sizeof(float);
constexpr const char* prep_stage = "prep";

// One chunk's preparation cannot be split: the pool as a whole prepares chunks x prep seconds of
// work on `workers` cores at once.
double pool_prep_seconds(const floor_shape& shape) {
  return shape.chunk_prep_seconds * shape.chunks / shape.workers;
}

}  // namespace

// One thread prepares every chunk, then adds it. The add has no ceiling in the suite (a loop over
// two input streams, partly in cache), so the floor is the preparation alone: it is what the
// variant is bound by.
void add_cpu_serial_floor(benchmark::State& state, const floor_shape& shape) {
  add_floor_seconds(state, prep_stage, shape.chunk_prep_seconds * shape.chunks);
}

// Each worker runs its chunks' stages one after another: prepare, (copy up pageable, kernel and
// synchronise, copy down pageable), then send c through its pipe, which the coordinator drains.
// The batch lasts at least as long as its busiest worker, and that worker carries at least the
// average share, 1/workers of every chunk's serial work: so every per-chunk term is counted once
// and divided by the workers, each priced by the single-process ceiling of its stage (no one
// process copies faster than that). The concatenation starts only after the last result is in,
// so it adds in full, at one thread's memcpy rate. Cold adds one start of a process with a CUDA
// context (the workers start theirs in parallel). cpu_pool is the same without the device stages
// and without contexts; its add, like cpu_serial's, has no ceiling.
void add_map_pool_floor(benchmark::State& state, const floor_shape& shape, bool on_device,
                        bool cold) {
  const double share = 1.0 / shape.workers;
  const double n = shape.elements;
  add_floor_seconds(state, prep_stage, pool_prep_seconds(shape));
  if (on_device) {
    add_floor_bytes(state, ceiling::h2d_pageable, 2 * float_bytes * n * share);
    add_floor_bytes(state, ceiling::device_copy, 3 * float_bytes * n * share);
    add_floor_events(state, ceiling::launch_sync, shape.chunks * share);
    add_floor_bytes(state, ceiling::d2h_pageable, float_bytes * n * share);
    if (cold) add_floor_events(state, ceiling::process_start, 1);
  }
  add_floor_bytes(state, ceiling::pipe, float_bytes * n * share);
  add_floor_bytes(state, ceiling::shm_memcpy, float_bytes * n);
}

// The floor for pool_prep: the larger of the PCIe floor with both directions overlapped
// (a and b up at the pinned rate, c down at the pinned rate, and all of it over the bus at the
// bidirectional rate) and the pool's preparation time (one chunk's measured time x chunks /
// workers). The kernels read and write 3 x 4 x N bytes of device memory, a bound too, though never
// the binding one here. Cold figures keep the warm floor: shared_gpu's workers create no CUDA
// context, and the suite has no ceiling for a bare process start, so no start term can be priced
// honestly; threads starts no process at all.
void add_streamed_floor(benchmark::State& state, const floor_shape& shape) {
  const double n = shape.elements;
  set_floor_overlapped(state);
  add_floor_bytes(state, ceiling::h2d_pinned, 2 * float_bytes * n);
  add_floor_bytes(state, ceiling::d2h_pinned, float_bytes * n);
  add_floor_bytes(state, ceiling::bidirectional_pinned, 3 * float_bytes * n);
  add_floor_bytes(state, ceiling::device_copy, 3 * float_bytes * n);
  add_floor_seconds(state, prep_stage, pool_prep_seconds(shape));
}

}  // namespace handoff::bench::pool_prep

// What bounds each pool_prep variant, from the ceilings of the same run and the time this run
// measured for preparing one chunk (chunk_prep_timing.cpp, reported as chunk_prep_seconds).

#include "handoff/patterns/ceiling_names.hpp"
#include "rows.hpp"

namespace handoff::patterns::pool_prep {
namespace {

constexpr double float_bytes = sizeof(float);
constexpr const char* prep_stage = "prep";

struct floor_shape {
  double elements = 0;  // N: the whole batch
  double chunks = 0;
  double workers = 1;             // processes, or preparation threads
  double chunk_prep_seconds = 0;  // fastest time to prepare one chunk on one thread
};

floor_shape shape_of(const point& at) {
  return {.elements = static_cast<double>(at.total()),
          .chunks = static_cast<double>(at.chunks),
          .workers = static_cast<double>(at.workers),
          .chunk_prep_seconds = latest_chunk_prep_seconds(at.elements)};
}

// One chunk's preparation cannot be split: the pool as a whole prepares chunks x prep seconds of
// work on `workers` cores at once.
double pool_prep_seconds(const floor_shape& shape) {
  return shape.chunk_prep_seconds * shape.chunks / shape.workers;
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
floor_terms map_pool_floor(const point& at, bool on_device, bool cold) {
  const auto shape = shape_of(at);
  const double share = 1.0 / shape.workers;
  const double n = shape.elements;
  floor_terms floor;
  floor.add_seconds(prep_stage, pool_prep_seconds(shape));
  if (on_device) {
    floor.add_bytes(ceiling::h2d_pageable, 2 * float_bytes * n * share)
        .add_bytes(ceiling::device_copy, 3 * float_bytes * n * share)
        .add_events(ceiling::launch_sync, shape.chunks * share)
        .add_bytes(ceiling::d2h_pageable, float_bytes * n * share);
    if (cold) floor.add_events(ceiling::process_start, 1);
  }
  floor.add_bytes(ceiling::pipe, float_bytes * n * share)
      .add_bytes(ceiling::shm_memcpy, float_bytes * n);
  return floor;
}

}  // namespace

// One thread prepares every chunk, then adds it. The add has no ceiling in the suite (a loop over
// two input streams, partly in cache), so the floor is the preparation alone: it is what the
// variant is bound by.
floor_terms cpu_serial_floor(const point& at, compute_target, const measured_run&) {
  const auto shape = shape_of(at);
  return floor_terms{}.add_seconds(prep_stage, shape.chunk_prep_seconds * shape.chunks);
}

floor_terms cpu_pool_floor(const point& at, compute_target, const measured_run& run) {
  return map_pool_floor(at, false, run.cold);
}

// The seed's floor prices the device stages only where they ran on the device.
floor_terms seed_floor(const point& at, compute_target target, const measured_run& run) {
  return map_pool_floor(at, target == compute_target::device, run.cold);
}

// The floor for pool_prep: the larger of the PCIe floor with both directions overlapped
// (a and b up at the pinned rate, c down at the pinned rate, and all of it over the bus at the
// bidirectional rate) and the pool's preparation time (one chunk's measured time x chunks /
// workers). The kernels read and write 3 x 4 x N bytes of device memory, a bound too, though never
// the binding one here. Cold figures keep the warm floor: shared_gpu's workers create no CUDA
// context, and the suite has no ceiling for a bare process start, so no start term can be priced
// honestly; threads starts no process at all.
floor_terms streamed_floor(const point& at, compute_target, const measured_run&) {
  const auto shape = shape_of(at);
  const double n = shape.elements;
  floor_terms floor;
  floor.overlapped = true;
  floor.add_bytes(ceiling::h2d_pinned, 2 * float_bytes * n)
      .add_bytes(ceiling::d2h_pinned, float_bytes * n)
      .add_bytes(ceiling::bidirectional_pinned, 3 * float_bytes * n)
      .add_bytes(ceiling::device_copy, 3 * float_bytes * n)
      .add_seconds(prep_stage, pool_prep_seconds(shape));
  return floor;
}

}  // namespace handoff::patterns::pool_prep

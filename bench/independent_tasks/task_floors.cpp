#include "task_floors.hpp"

#include <algorithm>
#include <cstdint>
#include <thread>

#include "../harness/traffic.hpp"
#include "handoff/patterns/ceiling_names.hpp"

namespace handoff::bench {

using patterns::independent_tasks::data_location;

void add_device_variant_floor(benchmark::State& state, const task_inputs& inputs,
                              device_variant variant, data_location where) {
  // streams and graph spread the datasets over several streams, so one dataset's upload runs
  // while the host still issues later launches: their stages overlap, and only the slowest of them
  // is a lower bound. batched runs its upload, reduction and download one after another.
  if (variant != device_variant::batched) set_floor_overlapped(state);
  add_floor_bytes(state, ceiling::device_copy, inputs.bytes());
  const double launches =
      variant == device_variant::streams ? static_cast<double>(inputs.datasets) : 1.0;
  add_floor_events(state, ceiling::launch_async, launches);
  if (where == data_location::host) {
    double uploaded = inputs.bytes();
    if (variant == device_variant::batched) {
      uploaded += static_cast<double>(inputs.batch.offsets().size_bytes());
    }
    add_floor_bytes(state, ceiling::h2d_pinned, uploaded);
    add_floor_events(state, ceiling::launch_sync, 1);
  }
}

void add_process_floor(benchmark::State& state, const task_inputs& inputs,
                       const process_floor_facts& facts) {
  add_floor_bytes(state, ceiling::pipe, inputs.bytes());
  const std::size_t workers = std::max<std::size_t>(1, facts.workers);
  if (!facts.on_device) {
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    add_floor_seconds(
        state, "kernel",
        facts.stand_in_compute_seconds / static_cast<double>(std::min(workers, cores)));
    return;
  }
  add_floor_bytes(state, ceiling::h2d_pageable, inputs.bytes());
  const std::size_t rounds = (inputs.datasets + workers - 1) / workers;
  add_floor_events(state, ceiling::launch_sync, static_cast<double>(rounds));
  if (facts.cold) add_floor_events(state, ceiling::process_start, 1);
}

}  // namespace handoff::bench

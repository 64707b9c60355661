#pragma once
// The floor of each queued_worker variant: the bytes its data must move over each ceiling, the
// launches it must pay, and (host stand-in) the add as measured in the same run.

#include <benchmark/benchmark.h>

#include <cstddef>

#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/queued_worker/queued_worker.hpp"

namespace handoff::bench {

struct queued_worker_shape {
  std::size_t items = 10;
  std::size_t elements = std::size_t{1} << 20;
  bool operator==(const queued_worker_shape&) const = default;
};

// kernel_seconds_per_batch: the measured add of the host stand-in (unused on the device).
void add_queued_worker_floor(benchmark::State& state, patterns::queued_worker::variant kind,
                             patterns::compute_target target, const queued_worker_shape& shape,
                             bool cold, double kernel_seconds_per_batch);

}  // namespace handoff::bench

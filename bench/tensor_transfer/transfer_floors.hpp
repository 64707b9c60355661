#pragma once
// What bounds each tensor_transfer variant, from the ceilings of the stages it passes through, and
// the stage times it reports.

#include <benchmark/benchmark.h>

#include "handoff/patterns/tensor_transfer/stage_times.hpp"
#include "handoff/patterns/tensor_transfer/transfer_variant.hpp"

namespace handoff::bench {

void add_transfer_floor(benchmark::State& state, patterns::transfer_variant variant, double bytes,
                        bool on_device);

// stage.<name>: seconds per transfer, averaged over the iterations. wait is what is left of the
// measured time: the channel itself, and each side waiting for the other.
void set_stage_counters(benchmark::State& state, const patterns::stage_times& stages,
                        double measured_seconds);

}  // namespace handoff::bench

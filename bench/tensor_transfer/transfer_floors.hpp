#pragma once
// What bounds each tensor_transfer variant, from the ceilings of the stages it passes through.

#include <benchmark/benchmark.h>

#include "handoff/patterns/tensor_transfer/transfer_variant.hpp"

namespace handoff::bench {

void add_transfer_floor(benchmark::State& state, patterns::transfer_variant variant, double bytes,
                        bool on_device);

}  // namespace handoff::bench

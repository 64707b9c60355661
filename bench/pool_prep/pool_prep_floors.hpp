#pragma once
// What bounds each pool_prep variant, from the ceilings of the same run and the time this run
// measured for preparing one chunk.

#include <benchmark/benchmark.h>

namespace handoff::bench::pool_prep {

struct floor_shape {
  double elements = 0;  // N: the whole batch
  double chunks = 0;
  double workers = 1;             // processes, or preparation threads
  double chunk_prep_seconds = 0;  // fastest time to prepare one chunk on one thread
};

void add_cpu_serial_floor(benchmark::State& state, const floor_shape& shape);
// seed (on_device) and cpu_pool (not); cold adds the start of a worker with a CUDA context.
void add_map_pool_floor(benchmark::State& state, const floor_shape& shape, bool on_device,
                        bool cold);
// shared_gpu and threads: preparation, both copy directions and the kernels overlap.
void add_streamed_floor(benchmark::State& state, const floor_shape& shape);

}  // namespace handoff::bench::pool_prep

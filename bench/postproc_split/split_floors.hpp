#pragma once
// What each postproc_split variant cannot beat, priced by this run's ceilings:
//   seed        d2h of c (4N bytes, pageable), then the pipe carrying every chunk (4N) from the one
//               coordinator, then the sum of the last chunk sent (the smallest), which cannot start
//               before its last byte has arrived; the other chunks' sums overlap the pipe, so
//               adding all of post / workers would put the floor above what the seed can do;
//   shm         d2h of c into the segment (4N, pageable: the segment is not page-locked), then
//               post / the workers that can sum at once (no more than the chunks);
//   overlapped  the slower of d2h (4N, pinned: the segment is registered) and post / the workers
//               that can sum at once (no more than its pieces), which overlap;
//   gpu_reduce  reading c once from device memory (4N at the device-copy rate, which counts read
//               plus written bytes, so 4N read bytes cost 4N / rate) + one launch and synchronise:
//               the region ends when the host holds the scalar, which is what kernel_launch_sync
//               times for an empty kernel.
// post is one thread's sum of c, measured in the same run; no more workers than hardware threads
// count. The host stand-in's copy back is a host memcpy, priced by the one-thread memcpy ceiling
// instead of PCIe.
//
// A cold figure has the warm floor: its workers never create a CUDA context, so the suite's only
// process ceiling (start with context creation) would price a cost cold runs do not pay.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <span>

#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/postproc_split/split_variants.hpp"

namespace handoff::bench {

// The fastest of nine timed runs after a warm-up, outside any timed region.
double one_thread_sum_seconds(std::span<const float> c);

// Workers that can be summing at the same moment, given how many units of work there are.
std::size_t concurrent_summers(std::size_t workers, std::size_t units);

// post's share of the floor, from one thread's sum of all count elements (see above).
double post_floor_seconds(patterns::postproc_split::split_variant variant, std::size_t count,
                          std::size_t chunks, std::size_t workers, double one_thread_seconds);

void add_pooled_split_floor(benchmark::State& state,
                            patterns::postproc_split::split_variant variant,
                            patterns::compute_target target, std::size_t count,
                            double post_seconds);

void add_gpu_reduce_floor(benchmark::State& state, std::size_t count);

}  // namespace handoff::bench

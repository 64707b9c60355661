#include "split_floors.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <thread>

#include "../harness/traffic.hpp"
#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/patterns/postproc_split/chunk_sum.hpp"

namespace handoff::bench {

using patterns::compute_target;
using patterns::postproc_split::split_variant;

// The fastest of several runs, not the median: the floor must stay a lower bound, and a median
// taken by the coordinator on a busy machine came out twice as slow as the workers' own sums (176%
// of the floor, SUSPECT, with 2 workers on an H200 host).
double one_thread_sum_seconds(std::span<const float> c) {
  volatile double sink = patterns::postproc_split::sum_chunk(c);  // warm-up
  double fastest = std::numeric_limits<double>::infinity();
  for (int run = 0; run < 9; ++run) {
    const auto start = std::chrono::steady_clock::now();
    sink = patterns::postproc_split::sum_chunk(c);
    fastest = std::min(
        fastest, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  (void)sink;
  return fastest;
}

std::size_t concurrent_summers(std::size_t workers, std::size_t units) {
  const std::size_t threads = std::max(1U, std::thread::hardware_concurrency());
  return std::max<std::size_t>(1, std::min({workers, units, threads}));
}

double post_floor_seconds(split_variant variant, std::size_t count, std::size_t chunks,
                          std::size_t workers, double one_thread_seconds) {
  namespace split = patterns::postproc_split;
  if (count == 0) return 0.0;
  const auto plan = split::array_split(count, chunks);
  switch (variant) {
    case split_variant::seed:
      return one_thread_seconds * static_cast<double>(plan.back().count) /
             static_cast<double>(count);
    case split_variant::shm:
      return one_thread_seconds / static_cast<double>(concurrent_summers(workers, chunks));
    case split_variant::overlapped: {
      const auto pieces = split::pipeline_pieces(plan, workers).pieces.size();
      return one_thread_seconds / static_cast<double>(concurrent_summers(workers, pieces));
    }
  }
  return 0.0;
}

void add_pooled_split_floor(benchmark::State& state, split_variant variant, compute_target target,
                            std::size_t count, double post_seconds) {
  const double bytes = static_cast<double>(count * sizeof(float));
  const bool device = target == compute_target::device;
  add_floor_seconds(state, "post", post_seconds);
  switch (variant) {
    case split_variant::seed:
      add_floor_bytes(state, device ? ceiling::d2h_pageable : ceiling::shm_memcpy, bytes);
      add_floor_bytes(state, ceiling::pipe, bytes);
      return;
    case split_variant::shm:
      add_floor_bytes(state, device ? ceiling::d2h_pageable : ceiling::shm_memcpy, bytes);
      return;
    case split_variant::overlapped:
      set_floor_overlapped(state);
      add_floor_bytes(state, device ? ceiling::d2h_pinned : ceiling::shm_memcpy, bytes);
      return;
  }
}

void add_gpu_reduce_floor(benchmark::State& state, std::size_t count) {
  add_floor_bytes(state, ceiling::device_copy, static_cast<double>(count * sizeof(float)));
  add_floor_events(state, ceiling::launch_sync, 1);
}

}  // namespace handoff::bench

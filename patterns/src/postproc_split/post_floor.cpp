#include "handoff/patterns/postproc_split/post_floor.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "handoff/patterns/postproc_split/chunk_sum.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::patterns::postproc_split {
namespace {

double fastest_sum_seconds(std::size_t count) {
  std::vector<float> c(count);
  reference::fill_seeded_nonzero(c, 0x5011C);
  volatile double sink = sum_chunk(c);  // warm-up: first touch and caches
  double fastest = std::numeric_limits<double>::infinity();
  for (int run = 0; run < 9; ++run) {
    const auto start = wall_clock::now();
    sink = sum_chunk(c);
    fastest = std::min(fastest, seconds_since(start));
  }
  (void)sink;
  return fastest;
}

}  // namespace

double one_thread_sum_seconds(std::size_t count) {
  static std::optional<std::pair<std::size_t, double>> latest;
  if (!latest || latest->first != count) latest.emplace(count, fastest_sum_seconds(count));
  return latest->second;
}

std::size_t concurrent_summers(std::size_t workers, std::size_t units) {
  const std::size_t threads = std::max(1U, std::thread::hardware_concurrency());
  return std::max<std::size_t>(1, std::min({workers, units, threads}));
}

double shared_post_seconds(std::size_t count, std::size_t workers, std::size_t units) {
  if (count == 0) return 0.0;
  return one_thread_sum_seconds(count) / static_cast<double>(concurrent_summers(workers, units));
}

const char* copy_back_ceiling(compute_target target, bool pinned) {
  if (target != compute_target::device) return ceiling::shm_memcpy;
  return pinned ? ceiling::d2h_pinned : ceiling::d2h_pageable;
}

}  // namespace handoff::patterns::postproc_split

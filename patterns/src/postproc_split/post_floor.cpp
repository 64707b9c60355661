#include "handoff/patterns/postproc_split/post_floor.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
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
  for (int run = 0; run < 15; ++run) {
    const auto start = wall_clock::now();
    sink = sum_chunk(c);
    fastest = std::min(fastest, seconds_since(start));
  }
  (void)sink;
  return fastest;
}

}  // namespace

double one_thread_sum_seconds(std::size_t count, std::size_t unit_elements) {
  if (count == 0) return 0.0;
  const std::size_t unit = std::clamp<std::size_t>(unit_elements, 1, count);
  return fastest_sum_seconds(unit) * static_cast<double>(count) / static_cast<double>(unit);
}

double one_thread_sum_seconds(const measured_run& run) {
  for (const auto& figure : run.figures)
    if (figure.name == one_thread_sum_figure) return figure.value;
  throw std::logic_error("the session reported no " + std::string(one_thread_sum_figure));
}

std::size_t concurrent_summers(std::size_t workers, std::size_t units) {
  const std::size_t threads = std::max(1U, std::thread::hardware_concurrency());
  return std::max<std::size_t>(1, std::min({workers, units, threads}));
}

double shared_post_seconds(std::size_t count, const measured_run& run, std::size_t workers,
                           std::size_t units) {
  if (count == 0) return 0.0;
  return one_thread_sum_seconds(run) / static_cast<double>(concurrent_summers(workers, units));
}

const char* copy_back_ceiling(compute_target target, bool pinned) {
  if (target != compute_target::device) return ceiling::shm_memcpy;
  return pinned ? ceiling::d2h_pinned : ceiling::d2h_pageable;
}

}  // namespace handoff::patterns::postproc_split

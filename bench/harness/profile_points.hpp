#pragma once
// Which points of a family's full sweep a profile measures. The full profile takes them all. The
// default profile takes a short sweep: the first (smallest) point and those the family names (its
// default size, the sizes the headline rows and the reference figures use), so that every variant
// is measured where users compare it and the trend still shows, in a run that fits ten minutes on
// one H200; the largest sizes, which cost the most time, are the full profile's. Smoke runs choose
// their own tiny points before this.

#include <algorithm>
#include <initializer_list>
#include <vector>

#include "bench_config.hpp"

namespace handoff::bench {

template <class Point>
std::vector<Point> profile_points(const bench_config& config, const std::vector<Point>& full,
                                  std::initializer_list<Point> named) {
  if (config.profile != bench_profile::standard) return full;
  std::vector<Point> kept;
  for (std::size_t i = 0; i < full.size(); ++i) {
    if (i == 0 || std::ranges::find(named, full[i]) != named.end()) kept.push_back(full[i]);
  }
  return kept;
}

}  // namespace handoff::bench

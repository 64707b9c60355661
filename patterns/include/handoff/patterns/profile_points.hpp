#pragma once
// Which points of a sweep's full list a profile measures. The full profile takes them all. The
// default profile takes a short sweep: the first (smallest) point and those the sweep names (its
// default size, the sizes the headline rows and the reference figures use), so that every variant
// is measured where users compare it and the trend still shows, in a run that fits ten minutes on
// one H200; the largest sizes, which cost the most time, are the full profile's. Smoke runs choose
// their own tiny points before this.

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "handoff/patterns/sweep_settings.hpp"

namespace handoff::patterns {

template <class Point>
std::vector<Point> profile_points(const sweep_settings& settings, const std::vector<Point>& full,
                                  std::initializer_list<Point> named) {
  if (settings.profile != sweep_profile::standard) return full;
  std::vector<Point> kept;
  for (std::size_t i = 0; i < full.size(); ++i) {
    if (i == 0 || std::ranges::find(named, full[i]) != named.end()) kept.push_back(full[i]);
  }
  return kept;
}

}  // namespace handoff::patterns

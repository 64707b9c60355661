#pragma once
// The points every postproc_split row runs and verifies at, on either target: the default small
// (the smoke run's, splitting unevenly into more chunks than workers), empty, one element, and
// uneven sizes with fewer chunks than workers or more chunks than elements.

#include <string>
#include <vector>

#include "handoff/patterns/postproc_split/variants.hpp"

namespace handoff::patterns::postproc_split {

inline std::vector<split_point> conformance_points(compute_target target) {
  return {{100'003, 7, 4, target}, {0, 3, 2, target},    {1, 1, 4, target},
          {1, 3, 2, target},       {1027, 3, 4, target}, {(1 << 20) + 5, 10, 3, target}};
}

inline std::string describe(const split_point& at) {
  return std::to_string(at.count) + " elements, " + std::to_string(at.chunks) + " chunks, " +
         std::to_string(at.workers) + " workers";
}

// The rows running on target whose orchestration spans processes: those that also run with a host
// stand-in for the device.
inline std::vector<std::string> process_rows(compute_target target) {
  std::vector<std::string> names;
  for (const auto& row : postproc_split_variants())
    if (row.targets.host_stand_in && row.targets.supports(target)) names.emplace_back(row.name);
  return names;
}

}  // namespace handoff::patterns::postproc_split

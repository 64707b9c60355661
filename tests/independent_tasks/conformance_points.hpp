#pragma once
// The points every independent_tasks row runs and verifies at, on either target: the default
// small (the smoke run's 10 datasets of a length no kernel tile divides), empty datasets, one
// element, and uneven lengths; on the host also no datasets at all.

#include <string>
#include <vector>

#include "handoff/patterns/independent_tasks/variants.hpp"

namespace handoff::patterns::independent_tasks {

inline std::vector<task_point> conformance_points(data_location where) {
  return {{10, 1027, where}, {3, 0, where}, {1, 1, where}, {7, 4097, where}, {33, 5, where}};
}

inline std::string describe(const task_point& at) {
  return std::to_string(at.datasets) + " datasets of " + std::to_string(at.elements) + " (" +
         std::string(data_location_name(at.where)) + ")";
}

// The rows running on target whose work spans processes (those with a cold figure: a pool).
inline std::vector<std::string> process_rows(compute_target target) {
  std::vector<std::string> names;
  for (const auto& row : independent_tasks_variants())
    if (row.cold != cold_kind::none && row.targets.supports(target)) names.emplace_back(row.name);
  return names;
}

}  // namespace handoff::patterns::independent_tasks

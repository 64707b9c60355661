#pragma once
// The conformance checks (support/variant_conformance.hpp) over seed 002's table, row by row: each
// row runs and verifies at the points it has benchmarks at among empty, one and uneven sizes per
// workload (affine has no empty order: n = 0 is refused by extended_problem).

#include <string>
#include <vector>

#include "handoff/patterns/elementwise/extended_table.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::patterns::elementwise::testing_support {

inline void expect_row_conforms(const std::string& name, compute_target target,
                                const std::vector<extended_point>& points) {
  const auto& row = find_row(extended_variants(), name);
  for (const auto& at : points) {
    if (!is_measured_at(row, at)) continue;
    SCOPED_TRACE(std::string(workload_name(at.workload)) + " size " + std::to_string(at.size));
    handoff::test_support::expect_runs_and_verifies(row, at, target, make_extended_case);
  }
}

inline std::vector<extended_point> points_of(std::vector<std::size_t> counts,
                                             std::vector<std::size_t> orders) {
  std::vector<extended_point> points;
  for (const auto workload : {extended_workload::square, extended_workload::neg_b_over_a}) {
    for (const std::size_t count : counts)
      points.push_back({.workload = workload, .size = count});
  }
  for (const std::size_t n : orders)
    points.push_back({.workload = extended_workload::affine, .size = n});
  return points;
}

}  // namespace handoff::patterns::elementwise::testing_support

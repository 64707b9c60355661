#pragma once
// The iterative pattern's conformance checks over its table, shared by the CPU program (the CPU
// rows) and the GPU program (the device rows): every row runs twice and verifies, poisoned in
// between, at the default size, at one unknown, at sizes and step counts that divide nothing, and
// at the size the benchmarks' smallest point has; an empty system is refused with a typed error.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "handoff/patterns/iterative/variants.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::patterns::iterative::testing_support {

inline const jacobi_point conformance_points[] = {
    {},                                    // the default: 1027 unknowns, 100 steps
    {.unknowns = 1, .iterations = 100},    // one unknown: the boundary terms only
    {.unknowns = 1027, .iterations = 25},  // a step count the checks (every 10) do not divide
    {.unknowns = 1027, .iterations = 7},   // an odd count ends in the other state buffer
    {.unknowns = 1u << 16, .iterations = 100},
};

inline std::string describe(const jacobi_point& at) {
  return std::to_string(at.unknowns) + " unknowns, " + std::to_string(at.iterations) + " steps";
}

inline void expect_row_conforms(const std::string& name, compute_target target) {
  handoff::test_support::expect_runs_and_verifies_at(
      find_row(iterative_variants(), name), conformance_points, target, make_jacobi_case, describe);
}

inline void expect_empty_system_refused(const std::string& name, compute_target target) {
  const auto& row = find_row(iterative_variants(), name);
  EXPECT_THROW(row.setup({.unknowns = 0}, target), std::invalid_argument) << name;
  EXPECT_THROW(make_jacobi_case({.unknowns = 0}), std::invalid_argument);
}

}  // namespace handoff::patterns::iterative::testing_support

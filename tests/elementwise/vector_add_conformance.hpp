#pragma once
// The vector add's table (vector_add_table.hpp) against the conformance checks, at the sizes a
// kernel or a slicing loop gets wrong first: none, one element, either side of a block of 1024,
// an odd count, and more than a block of blocks. A session's check must be able to fail: poisoned
// and not run, its output is refused.

#include <gtest/gtest.h>

#include <array>
#include <string>

#include "handoff/patterns/elementwise/vector_add_table.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::patterns::elementwise::testing_support {

inline constexpr std::array<vector_add_point, 6> conformance_points{
    vector_add_point{0},    vector_add_point{1},    vector_add_point{1023},
    vector_add_point{1025}, vector_add_point{1027}, vector_add_point{(1u << 20) + 3}};

inline std::string describe(const vector_add_point& at) {
  return "count " + std::to_string(at.count);
}

inline const auto& vector_add_row(const std::string& name) {
  return find_row(vector_add_variants(), name);
}

inline void expect_row_conforms(const std::string& name, compute_target target) {
  handoff::test_support::expect_runs_and_verifies_at(
      vector_add_row(name), std::span(conformance_points), target, make_vector_add_case, describe);
}

inline void expect_unrun_output_refused(const std::string& name, compute_target target) {
  const vector_add_point at{1027};
  const auto work = make_vector_add_case(at);
  auto session = vector_add_row(name).setup(at, target);
  session->poison(*work);
  EXPECT_FALSE(session->verify(*work).passed()) << name << " passed an output it never wrote";
  session->shutdown();
}

}  // namespace handoff::patterns::elementwise::testing_support

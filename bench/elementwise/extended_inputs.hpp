#pragma once
// Seeded inputs and the oracle for one (workload, size) of seed 002's workloads, shared by every
// variant at that size. Only the latest is kept: at 2^24 elements one set is 192 MiB, and the
// affine oracle at n = 2048 takes a moment to compute.

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "handoff/patterns/elementwise/extended_problem.hpp"
#include "handoff/reference/verify.hpp"
#include "handoff/reference/verify_affine.hpp"

namespace handoff::bench {

struct extended_data {
  patterns::elementwise::extended_workload workload{};
  std::size_t size = 0;                            // elements, or the affine order n
  std::vector<float> first, second, bias;          // x; a, b; W, X, b
  std::vector<float> expected;                     // square and neg_b_over_a
  std::optional<reference::affine_oracle> oracle;  // affine

  patterns::elementwise::extended_problem problem() const;
  // Exact to 1 ulp for the elementwise workloads, the affine tolerance for affine.
  reference::verification_result verify(std::span<const float> actual) const;
};

const extended_data& extended_data_for(patterns::elementwise::extended_workload workload,
                                       std::size_t size);

}  // namespace handoff::bench

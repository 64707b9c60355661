#pragma once
// The oracles for seed 002's two elementwise workloads: y = x * x and x = -b / a. Each is one IEEE
// single-precision operation per element, correctly rounded, so a correct result on any device
// matches it exactly. The oracle computes in double and rounds once to float: the double product
// of two floats is exact, and a double quotient rounded again to float is still the correctly
// rounded float quotient (53 >= 2 * 24 + 2, so the double rounding is innocuous), so the oracle
// shares no code path with the variants it judges.

#include <span>

namespace handoff::reference {

void square(std::span<const float> x, std::span<float> out);

// a must hold no zero; the seeded inputs never do.
void neg_b_over_a(std::span<const float> a, std::span<const float> b, std::span<float> out);

}  // namespace handoff::reference

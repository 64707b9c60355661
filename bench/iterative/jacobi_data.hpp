#pragma once
// Seeded b and x0 and the double-precision answer for one number of unknowns, shared by every
// variant at that size. Only the latest size is kept: at 2^26 unknowns one set is 1 GiB.

#include <cstddef>
#include <vector>

namespace handoff::bench {

inline constexpr int jacobi_iterations = 100;

struct jacobi_data {
  std::size_t unknowns = 0;
  std::vector<float> b, x0;
  std::vector<double> expected;  // x after jacobi_iterations steps, by reference::jacobi_1d_tiled
};

const jacobi_data& jacobi_data_for(std::size_t unknowns);

}  // namespace handoff::bench

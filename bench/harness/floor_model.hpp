#pragma once
// A row's floor in words, so that a reader can redo it: each term with the ceiling figure it was
// priced at for that size, and how the terms combine.
//   "pcie_h2d_pinned 268 MB at 55.4 GB/s (4.85 ms) + kernel_launch_sync 1 x 8.77 µs"
//   "launches only: kernel_launch_sync 1 x 8.77 µs"     (a floor of kernel launches alone)
//   "slowest of: pcie_d2h_pinned 4.19 MB at 53.1 GB/s (79 µs) | post 120 µs measured"

#include <string>

#include "ceiling_summary.hpp"

namespace handoff::bench {

std::string describe_floor(const efficiency_row& row);

}  // namespace handoff::bench

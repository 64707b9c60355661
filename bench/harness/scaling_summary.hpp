#pragma once
// Scaling against one GPU, from the rows of the same run. A benchmark whose name carries a
// "gpus:N" axis is set against the run whose name is identical but for "gpus:1": the same
// workload, partitioner, size and scope, and the same launcher (an MPI row pairs with the MPI
// gpus:1 row, never with the single-process one). Both times are medians over repetitions.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ceiling_summary.hpp"

namespace handoff::bench {

struct scaling_row {
  std::string name;
  int gpus = 1;
  std::string baseline_name;
  double measured_seconds = 0.0;
  double baseline_seconds = 0.0;
  double speedup() const { return baseline_seconds / measured_seconds; }
  // Perfect scaling is 1: N GPUs finish in 1/N of one GPU's time.
  double efficiency() const { return speedup() / gpus; }
};

// The N of a "gpus:N" path segment, N >= 1 written without a sign or leading zeros. Empty when the
// name has no such segment, when N is malformed or 0, or when the name has two of them (which one
// would be the axis is a guess). "gpus_per_node:2" is another axis and does not count.
std::optional<int> gpus_axis_of(const std::string& name);

// One row for each benchmark with a gpus axis whose gpus:1 baseline ran too, gpus:1 rows included
// (efficiency 1), ordered so that each configuration's 1..N GPU rows sit together.
std::vector<scaling_row> scaling_from(const std::vector<measured_run>& runs);

// The scaling section of the end-of-run summary; nothing when no run has a gpus axis.
void print_scaling(std::ostream& out, const std::vector<measured_run>& runs);

}  // namespace handoff::bench

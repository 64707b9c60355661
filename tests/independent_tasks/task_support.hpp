#pragma once
// Shared by independent_tasks' tests: uneven seeded datasets with their reference sums, and the
// process and shared-memory checks that show a pool left nothing behind.

#include <gtest/gtest.h>
#include <sys/types.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "handoff/patterns/independent_tasks/datasets.hpp"
#include "handoff/reference/sum_of_squares.hpp"
#include "support/leak_checks.hpp"

namespace handoff::patterns::independent_tasks::testing_support {

// Sizes no tile divides, an empty dataset, a single element, and one larger than a CUB tile.
inline const std::vector<std::size_t> uneven_sizes = {1027, 0, 1, 5000, 33, 10'000, 7, 4097, 0, 2};

struct batch_with_expected {
  dataset_batch batch;
  std::vector<double> expected;
};

inline batch_with_expected make_batch(const std::vector<std::size_t>& sizes,
                                      std::uint64_t seed = 17) {
  batch_with_expected made{dataset_batch::seeded(sizes, seed), {}};
  made.expected = reference::sums_of_squares(made.batch.views());
  return made;
}

using handoff::leak_checks::process_runs;

inline std::set<std::string> handoff_segments() {
  return handoff::leak_checks::held_segments_containing("handoff");
}

}  // namespace handoff::patterns::independent_tasks::testing_support

#pragma once
// Shared by independent_tasks' tests: uneven seeded datasets with their reference sums, and the
// process and /dev/shm checks that show a pool left nothing behind.

#include <gtest/gtest.h>
#include <sys/types.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "handoff/patterns/independent_tasks/datasets.hpp"
#include "handoff/reference/sum_of_squares.hpp"

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

// Dead, or a zombie nobody has reaped yet: either way it runs no more.
inline bool process_runs(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pid_field, command, state;
  if (!(stat >> pid_field >> command >> state)) return false;
  return state != "Z" && state != "X";
}

inline std::set<std::string> handoff_segments() {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator("/dev/shm")) {
    const auto name = entry.path().filename().string();
    if (name.starts_with("handoff")) names.insert(name);
  }
  return names;
}

}  // namespace handoff::patterns::independent_tasks::testing_support

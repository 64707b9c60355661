#pragma once
// independent_tasks' seeded datasets and their double-precision sums of squares for one size,
// shared by every variant at that size. Only the latest size is kept.

#include <cstddef>
#include <span>
#include <vector>

#include "handoff/patterns/independent_tasks/datasets.hpp"

namespace handoff::bench {

struct task_inputs {
  std::size_t datasets = 0;
  std::size_t elements = 0;  // per dataset
  patterns::independent_tasks::dataset_batch batch;
  std::vector<std::span<const float>> views;  // into batch
  std::vector<double> expected;
  double bytes() const { return static_cast<double>(batch.values().size_bytes()); }
};

const task_inputs& task_inputs_for(std::size_t datasets, std::size_t elements);

}  // namespace handoff::bench

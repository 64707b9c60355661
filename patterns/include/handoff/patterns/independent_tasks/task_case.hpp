#pragma once
// independent_tasks' work at one point: seeded datasets of one length, their double-precision sums
// of squares, and the sums a run delivers (the process and CPU variants write them here; the
// device variants keep theirs on the device until verified).

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "handoff/patterns/independent_tasks/datasets.hpp"
#include "handoff/patterns/independent_tasks/device_variants.hpp"
#include "handoff/reference/verify.hpp"

namespace handoff::patterns::independent_tasks {

// The axes of one row. where: for the in-process device variants only (the others read their
// datasets from host memory).
struct task_point {
  std::size_t datasets = 0;
  std::size_t elements = 0;  // per dataset
  data_location where = data_location::resident;
  bool operator==(const task_point&) const = default;
};

// The point's seeded datasets: the same values every time, so a session that must build its
// device variant before it sees the case (to give the driver its stream) holds the case's data.
dataset_batch datasets_for(const task_point& at);

class task_case {
 public:
  explicit task_case(const task_point& at);

  const dataset_batch& batch() const noexcept { return batch_; }
  std::span<const std::span<const float>> views() const noexcept { return views_; }
  std::span<const double> expected() const noexcept { return expected_; }
  double bytes() const noexcept { return static_cast<double>(batch_.values().size_bytes()); }

  void deliver(std::span<const float> sums);
  void poison();
  reference::verification_result verify() const;  // the delivered sums
  reference::verification_result verify(std::span<const float> sums) const;

 private:
  dataset_batch batch_;
  std::vector<std::span<const float>> views_;
  std::vector<double> expected_;
  std::vector<float> sums_;
};

std::unique_ptr<task_case> make_task_case(const task_point& at);

}  // namespace handoff::patterns::independent_tasks

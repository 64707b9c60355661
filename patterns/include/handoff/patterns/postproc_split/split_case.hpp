#pragma once
// postproc_split's work at one point: c = a + b from seeded never-zero inputs, already where the
// variants find it (device memory, computed by the vector add kernel and checked against the host's
// c; or the host's c itself, standing in for device memory), the double-precision oracle of its
// sum, and the sum a run delivers.
//
// Every run's sum is checked, not only the last one's, as a benchmark of this pattern always has:
// poison() checks the sum that the run before it delivered (outside any timing), and verify()
// reports every run since its last report except the first, which the benchmark driver runs
// untimed as a warm-up. A run that throws calls forget_runs(), so that a failed row's runs are
// never reported with the next row's.

#include <cstddef>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/postproc_split/computed_result.hpp"
#include "handoff/reference/verify.hpp"

namespace handoff::patterns::postproc_split {

// The axes of one row: c's length, np.array_split's sections, the pool's workers and where c lies.
struct split_point {
  std::size_t count = 0;
  std::size_t chunks = 1;
  std::size_t workers = 1;
  compute_target target = compute_target::host_stand_in;
  bool operator==(const split_point&) const = default;
};

class split_case {
 public:
  // Seeded c of at.count elements, on the device when at.target is; a wrong device c is
  // std::runtime_error.
  explicit split_case(const split_point& at);
  // A given c (tests shape it so that every chunk's sum names its chunk).
  split_case(compute_target target, std::vector<float> c);

  computed_result computed() const noexcept;  // c where the variants read it
  std::span<const float> host_c() const noexcept { return c_; }
  double expected_sum() const noexcept { return expected_sum_; }
  double sum() const noexcept { return sum_; }

  void deliver(double sum) noexcept;  // a run's result
  void poison();
  // Every run's verdict since the last report (see above); reporting starts a new tally.
  reference::verification_result verify() const;
  void forget_runs() noexcept;

 private:
  void count_delivered() const;

  compute_target target_;
  std::vector<float> c_;
  device_buffer<float> device_c_;  // empty off the device
  double expected_sum_ = 0.0;
  double sum_ = std::numeric_limits<double>::quiet_NaN();
  // The tally is mutable: verify() is const for its callers, but reporting closes the tally.
  mutable bool delivered_ = false;
  mutable bool next_is_warm_up_ = true;
  mutable reference::verification_result earlier_;
};

std::unique_ptr<split_case> make_split_case(const split_point& at);

}  // namespace handoff::patterns::postproc_split

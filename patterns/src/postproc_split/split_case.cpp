#include "handoff/patterns/postproc_split/split_case.hpp"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <utility>

#include "handoff/cuda_check.hpp"
#include "handoff/reference/compensated_sum.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"
#include "handoff/stream.hpp"
#include "handoff/vector_add.hpp"

namespace handoff::patterns::postproc_split {
namespace {

constexpr std::uint64_t seed_a = 0x5011A;
constexpr std::uint64_t seed_b = 0x5011B;

void upload(std::span<const float> host, float* device) {
  if (host.empty()) return;
  HANDOFF_CUDA_CHECK(cudaMemcpy(device, host.data(), host.size_bytes(), cudaMemcpyHostToDevice));
}

// The vector add kernel's c, checked element for element against the host's before anything
// reads it.
device_buffer<float> add_on_device(const std::vector<float>& a, const std::vector<float>& b,
                                   const std::vector<float>& expected) {
  const device_buffer<float> device_a(a.size()), device_b(b.size());
  device_buffer<float> device_c(a.size());
  if (a.empty()) return device_c;
  upload(a, device_a.data());
  upload(b, device_b.data());
  const handoff::stream stream;
  launch_vector_add(device_a.data(), device_b.data(), device_c.data(), a.size(), stream.get());
  stream.synchronize();
  std::vector<float> downloaded(a.size());
  HANDOFF_CUDA_CHECK(cudaMemcpy(downloaded.data(), device_c.data(), device_c.size_bytes(),
                                cudaMemcpyDeviceToHost));
  const auto verdict = reference::verify_elementwise(expected, downloaded);
  if (!verdict.passed()) {
    throw std::runtime_error("postproc_split: the device's c = a + b is wrong: " +
                             verdict.describe());
  }
  return device_c;
}

void add_verdict(reference::verification_result& tally, const reference::verification_result& one) {
  tally.checked += one.checked;
  tally.mismatches += one.mismatches;
  if (!tally.first && one.first) tally.first = one.first;
}

}  // namespace

split_case::split_case(const split_point& at) : target_(at.target), c_(at.count) {
  std::vector<float> a(at.count), b(at.count);
  reference::fill_seeded_nonzero(a, seed_a);
  reference::fill_seeded_nonzero(b, seed_b);
  reference::vector_add(a, b, c_);
  expected_sum_ = reference::compensated_sum(c_);
  if (target_ == compute_target::device) device_c_ = add_on_device(a, b, c_);
}

split_case::split_case(compute_target target, std::vector<float> c)
    : target_(target), c_(std::move(c)), expected_sum_(reference::compensated_sum(c_)) {
  if (target_ != compute_target::device) return;
  device_c_ = device_buffer<float>(c_.size());
  upload(c_, device_c_.data());
}

computed_result split_case::computed() const noexcept {
  if (target_ == compute_target::device) return {target_, device_c_.span()};
  return {target_, c_};
}

void split_case::deliver(double sum) noexcept {
  sum_ = sum;
  delivered_ = true;
}

void split_case::count_delivered() const {
  if (!delivered_) return;
  delivered_ = false;
  if (next_is_warm_up_) {
    next_is_warm_up_ = false;
    return;
  }
  add_verdict(earlier_, reference::verify_reduction(expected_sum_, sum_));
}

void split_case::poison() {
  count_delivered();
  sum_ = std::numeric_limits<double>::quiet_NaN();
}

reference::verification_result split_case::verify() const {
  // The last run is reported even when it was the only one (a test's single run); one that
  // delivered nothing is checked as its poisoned NaN, which fails.
  auto report = std::exchange(earlier_, {});
  add_verdict(report, reference::verify_reduction(expected_sum_, sum_));
  delivered_ = false;
  next_is_warm_up_ = true;
  return report;
}

void split_case::forget_runs() noexcept {
  earlier_ = {};
  delivered_ = false;
  next_is_warm_up_ = true;
}

std::unique_ptr<split_case> make_split_case(const split_point& at) {
  return std::make_unique<split_case>(at);
}

}  // namespace handoff::patterns::postproc_split

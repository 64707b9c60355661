#pragma once
// The sum of count floats on the device with CUB's DeviceReduce::Sum. The output is a double, so
// CUB accumulates in double (its accumulator is the type of init + input, and Sum's init has the
// output's type): the bytes read are the same as a float sum's, and the result stays within a
// relative 1e-5 of the double reference even where the random signs cancel, which a float
// accumulator cannot promise (its error bound grows with sum|x| / |sum x|, about sqrt(N) here).
//
// The scratch space CUB needs is sized and allocated once, at construction, for that count, so an
// enqueue allocates nothing.

#include <cuda_runtime_api.h>

#include <cstddef>

#include "handoff/device_buffer.hpp"

namespace handoff {

class device_float_sum {
 public:
  explicit device_float_sum(std::size_t count);

  std::size_t count() const noexcept { return count_; }
  std::size_t scratch_bytes() const noexcept { return scratch_.size_bytes(); }

  // values: count floats in device memory. result: one double in device memory or in page-locked
  // host memory, which the last kernel then writes across the bus, so no separate copy is needed.
  // Returns at once; the sum is there when stream has finished.
  void enqueue(const float* values, double* result, cudaStream_t stream) const;

 private:
  std::size_t count_;
  device_buffer<std::byte> scratch_;
};

}  // namespace handoff

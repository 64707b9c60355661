#pragma once
// postproc_split's gpu_reduce: no copy back and no pool at all. CUB sums c where it lies and only
// the scalar crosses the bus: the last kernel writes it straight into page-locked host memory, so
// one launch and one synchronisation separate "c is on the device" from "the sum is on the host".
// The scratch space is allocated at construction, outside any timed region.

#include <span>

#include "handoff/device_buffer.hpp"
#include "handoff/float_sum_in_double.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns::postproc_split {

class gpu_reduce {
 public:
  // device_c: device memory, which must outlive this object.
  explicit gpu_reduce(std::span<const float> device_c);

  void poison();  // NaN in the host-side result
  // Enqueues the reduction and waits for it; returns the sum.
  double run();
  double result() const noexcept { return *result_.data(); }
  cudaStream_t stream() const noexcept { return stream_.get(); }

 private:
  std::span<const float> c_;
  handoff::stream stream_;
  device_float_sum sum_;
  pinned_buffer<double> result_;
};

}  // namespace handoff::patterns::postproc_split

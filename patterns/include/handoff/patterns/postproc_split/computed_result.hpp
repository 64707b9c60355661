#pragma once
// c = a + b where the vector add left it: in device memory, or (host stand-in, for CI) in a host
// buffer standing in for device memory, so that the whole orchestration runs without a GPU: the
// copy back is then a host memcpy.

#include <span>

#include "handoff/patterns/compute_target.hpp"

namespace handoff::patterns::postproc_split {

struct computed_result {
  compute_target target = compute_target::device;
  // Device memory for compute_target::device, host memory for the stand-in; never dereferenced on
  // the host in the first case.
  std::span<const float> values;
};

// The seed's memcpy_dtoh: all of c into destination (which must have c's length, else
// std::invalid_argument), synchronously.
void copy_back(const computed_result& c, std::span<float> destination);

}  // namespace handoff::patterns::postproc_split

#include "handoff/patterns/postproc_split/gpu_reduce.hpp"

#include <limits>

namespace handoff::patterns::postproc_split {

gpu_reduce::gpu_reduce(std::span<const float> device_c)
    : c_(device_c), sum_(device_c.size()), result_(1) {
  poison();
}

void gpu_reduce::poison() {
  *result_.data() = std::numeric_limits<double>::quiet_NaN();
}

double gpu_reduce::run() {
  sum_.enqueue(c_.data(), result_.data(), stream_.get());
  stream_.synchronize();
  return result();
}

}  // namespace handoff::patterns::postproc_split

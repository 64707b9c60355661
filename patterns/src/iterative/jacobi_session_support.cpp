#include "jacobi_session_support.hpp"

#include <cuda_runtime_api.h>

#include "handoff/cuda_check.hpp"

namespace handoff::patterns::iterative::detail {

void run_clock::add(double seconds) {
  if (runs_++ == 0) {
    first_seconds_ = seconds;
  } else {
    later_seconds_ += seconds;
  }
}

named_figure run_clock::seconds_per_iteration(int iterations) const {
  const double mean = runs_ > 1 ? later_seconds_ / (runs_ - 1) : first_seconds_;
  runs_ = 0;
  first_seconds_ = 0;
  later_seconds_ = 0;
  return {"seconds_per_iteration", iterations > 0 ? mean / iterations : 0.0};
}

bool steps_fit_in_l2(std::size_t unknowns) {
  int device = 0;
  int l2_bytes = 0;
  HANDOFF_CUDA_CHECK(cudaGetDevice(&device));
  HANDOFF_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
  return jacobi_step_bytes(unknowns) <= static_cast<double>(l2_bytes);
}

named_figure l2_resident(std::size_t unknowns) {
  return {"l2_resident", steps_fit_in_l2(unknowns) ? 1.0 : 0.0};
}

void add_step_bytes(floor_terms& floor, const jacobi_point& at) {
  if (!steps_fit_in_l2(at.unknowns)) {
    floor.add_bytes(device_copy, at.iterations * jacobi_step_bytes(at.unknowns));
  }
}

}  // namespace handoff::patterns::iterative::detail

#include "spin_cost.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <exception>
#include <limits>
#include <vector>

#include "handoff/spin.hpp"

namespace handoff::bench {
namespace {

constexpr int warm_spins = 3;
constexpr int timed_spins = 15;

bool launched_empty_spin(cudaStream_t stream) {
  try {
    spin_on_stream(stream, 0);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

double measure_spin_fixed_seconds() {
  constexpr double unknown = std::numeric_limits<double>::infinity();
  cudaStream_t stream = nullptr;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) return unknown;
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  std::vector<double> seconds;
  if (cudaEventCreate(&start) == cudaSuccess && cudaEventCreate(&stop) == cudaSuccess) {
    for (int spin = 0; spin < warm_spins + timed_spins; ++spin) {
      float milliseconds = 0.0F;
      if (cudaEventRecord(start, stream) != cudaSuccess || !launched_empty_spin(stream) ||
          cudaEventRecord(stop, stream) != cudaSuccess ||
          cudaEventSynchronize(stop) != cudaSuccess ||
          cudaEventElapsedTime(&milliseconds, start, stop) != cudaSuccess) {
        break;
      }
      if (spin >= warm_spins) seconds.push_back(static_cast<double>(milliseconds) * 1e-3);
    }
  }
  if (stop) cudaEventDestroy(stop);
  if (start) cudaEventDestroy(start);
  cudaStreamDestroy(stream);
  if (seconds.size() < static_cast<std::size_t>(timed_spins)) return unknown;
  std::ranges::nth_element(seconds, seconds.begin() + timed_spins / 2);
  return seconds[timed_spins / 2];
}

}  // namespace

double spin_fixed_seconds() {
  static const double measured = measure_spin_fixed_seconds();
  return measured;
}

}  // namespace handoff::bench

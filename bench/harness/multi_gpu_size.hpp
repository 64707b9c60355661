#pragma once
// The size of multi_gpu's headline rows, in floats. The PCIe and device-copy ceilings reach it too,
// because a floor is priced by a ceiling measured at the floor's own size.

#include <algorithm>
#include <cstddef>

#include "bench_config.hpp"

namespace handoff::bench {

// Smoke: not a multiple of 4 or of any GPU count, so tails and uneven shares are covered.
inline constexpr std::size_t multi_gpu_smoke_elements = 4099;

// Split over two or more GPUs, 2^28 floats keep every device's part far past its caches. One GPU
// splits nothing, and a quarter of that streams from memory as surely at a quarter of the set-up.
inline std::size_t multi_gpu_headline_elements(const bench_environment& environment) {
  if (environment.config.smoke) return multi_gpu_smoke_elements;
  const std::size_t split =
      environment.gpus.count >= 2 ? std::size_t{1} << 28 : std::size_t{1} << 26;
  return std::min<std::size_t>(split, environment.config.max_elements);
}

}  // namespace handoff::bench

#pragma once
// The size of multi_gpu's headline rows, in floats. The bench's PCIe and device-copy ceilings reach
// it too, because a floor is priced by a ceiling measured at the floor's own size.

#include <algorithm>
#include <cstddef>

#include "handoff/patterns/sweep_settings.hpp"

namespace handoff::patterns::multi_gpu {

// Smoke: not a multiple of 4 or of any GPU count, so tails and uneven shares are covered.
inline constexpr std::size_t smoke_elements = 4099;

// Split over two or more GPUs, 2^28 floats keep every device's part far past its caches. One GPU
// splits nothing, and a quarter of that streams from memory as surely at a quarter of the set-up.
inline std::size_t headline_elements(const sweep_settings& settings) {
  if (settings.smoke) return smoke_elements;
  const std::size_t split = settings.gpus >= 2 ? std::size_t{1} << 28 : std::size_t{1} << 26;
  return std::min<std::size_t>(split, settings.max_elements);
}

}  // namespace handoff::patterns::multi_gpu

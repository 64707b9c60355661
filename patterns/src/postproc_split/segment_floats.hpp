#pragma once
// The shared-memory segment the shm and overlapped variants copy c into, as floats.

#include <algorithm>
#include <span>
#include <string>

#include "handoff/transport/shared_memory_segment.hpp"

namespace handoff::patterns::postproc_split {

// A segment is never empty (there would be nothing to map), so an empty c still gets one float.
inline transport::shared_memory_segment segment_for(std::size_t floats, const std::string& name) {
  return transport::shared_memory_segment::create_shareable(
      std::max<std::size_t>(floats, 1) * sizeof(float), name);
}

inline std::span<float> floats_of(const transport::shared_memory_segment& segment,
                                  std::size_t count) {
  return {reinterpret_cast<float*>(segment.bytes().data()), count};
}

}  // namespace handoff::patterns::postproc_split

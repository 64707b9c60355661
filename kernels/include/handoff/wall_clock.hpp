#pragma once
// The one wall clock of the suite: every region that involves host work (a process, a channel, a
// CPU variant) is timed with it, so all such figures share one clock and one conversion.

#include <chrono>

namespace handoff {

using wall_clock = std::chrono::steady_clock;

inline double seconds_since(wall_clock::time_point start) {
  return std::chrono::duration<double>(wall_clock::now() - start).count();
}

inline double seconds_between(wall_clock::time_point start, wall_clock::time_point stop) {
  return std::chrono::duration<double>(stop - start).count();
}

}  // namespace handoff

#pragma once
// Adds the wall time of a callable to one stage counter.

#include <utility>

#include "handoff/wall_clock.hpp"

namespace handoff::patterns {

template <class Body>
decltype(auto) timed_stage(double& stage_seconds, Body&& body) {
  struct add_on_exit {
    double& seconds;
    wall_clock::time_point start = wall_clock::now();
    ~add_on_exit() { seconds += seconds_since(start); }
  } add{stage_seconds};
  return std::forward<Body>(body)();
}

}  // namespace handoff::patterns

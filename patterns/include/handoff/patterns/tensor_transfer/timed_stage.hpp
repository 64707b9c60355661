#pragma once
// Adds the wall time of a callable to one stage counter.

#include <chrono>
#include <utility>

namespace handoff::patterns {

template <class Body>
decltype(auto) timed_stage(double& stage_seconds, Body&& body) {
  const auto start = std::chrono::steady_clock::now();
  struct add_on_exit {
    double& seconds;
    std::chrono::steady_clock::time_point start;
    ~add_on_exit() {
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  } add{stage_seconds, start};
  return std::forward<Body>(body)();
}

}  // namespace handoff::patterns

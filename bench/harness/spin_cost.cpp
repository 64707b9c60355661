#include "spin_cost.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <vector>

#include "handoff/spin.hpp"
#include "handoff/stream.hpp"

namespace handoff::bench {
namespace {

constexpr int warm_spins = 3;
constexpr int timed_spins = 15;

double measure_spin_fixed_seconds() {
  try {
    const stream on;
    const event start;
    const event stop;
    std::vector<double> seconds;
    for (int spin = 0; spin < warm_spins + timed_spins; ++spin) {
      start.record(on.get());
      spin_on_stream(on.get(), 0);
      stop.record(on.get());
      const double elapsed = elapsed_milliseconds(start, stop) * 1e-3;
      if (spin >= warm_spins) seconds.push_back(elapsed);
    }
    std::ranges::nth_element(seconds, seconds.begin() + timed_spins / 2);
    return seconds[timed_spins / 2];
  } catch (const std::exception&) {
    return std::numeric_limits<double>::infinity();
  }
}

}  // namespace

double spin_fixed_seconds() {
  static const double measured = measure_spin_fixed_seconds();
  return measured;
}

}  // namespace handoff::bench

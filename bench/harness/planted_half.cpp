#include "planted_half.hpp"

#include <deque>

namespace handoff::bench {
namespace {

// Google Benchmark reports a row's repetitions together after running them all, in order.
std::deque<planted_half>& held_halves() {
  static std::deque<planted_half> halves;
  return halves;
}

}  // namespace

void hold_planted_half(planted_half half) {
  held_halves().push_back(std::move(half));
}

std::optional<planted_half> take_planted_half(const std::string& row) {
  auto& halves = held_halves();
  while (!halves.empty()) {
    planted_half half = std::move(halves.front());
    halves.pop_front();
    if (half.row == row) return half;
  }
  return std::nullopt;
}

}  // namespace handoff::bench

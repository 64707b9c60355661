#include "planted_half.hpp"

#include <deque>
#include <map>

namespace handoff::bench {
namespace {

// Per row, in the order its repetitions ran: Google Benchmark reports a row's repetitions
// together after running them all, and with random interleaving rows take turns.
std::map<std::string, std::deque<planted_half>, std::less<>>& held_halves() {
  static std::map<std::string, std::deque<planted_half>, std::less<>> halves;
  return halves;
}

}  // namespace

void hold_planted_half(planted_half half) {
  held_halves()[half.row].push_back(std::move(half));
}

std::optional<planted_half> take_planted_half(const std::string& row) {
  auto& halves = held_halves();
  const auto found = halves.find(row);
  if (found == halves.end() || found->second.empty()) return std::nullopt;
  planted_half half = std::move(found->second.front());
  found->second.pop_front();
  if (found->second.empty()) halves.erase(found);
  return half;
}

}  // namespace handoff::bench

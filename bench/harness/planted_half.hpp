#pragma once
// The planted half of a row sampled in pairs (--handoff-plant-alternate=samples): the row's own
// figure is its plain samples' median, and the reporter writes this half beside it as the next
// repetition, so that compare --paired sets the two halves of each pass against each other.

#include <benchmark/benchmark.h>

#include <optional>
#include <string>

namespace handoff::bench {

struct planted_half {
  std::string row;
  // The planted samples' median over the plain samples' median.
  double time_ratio = 1.0;
  // The sample counters of the planted samples, which replace the plain half's in the copy.
  benchmark::UserCounters counters;
};

void hold_planted_half(planted_half half);
// The oldest half held for row, if any.
std::optional<planted_half> take_planted_half(const std::string& row);

}  // namespace handoff::bench

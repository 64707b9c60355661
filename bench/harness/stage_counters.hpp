#pragma once
// stage.<name> counters: seconds per iteration spent in each stage (prep, serialize, h2d, kernel,
// d2h, deserialize, post, wait), averaged over the iterations, so a report can stack them. wait is
// what the stages leave of the measured time: a channel, or one side waiting for the other.

#include <benchmark/benchmark.h>

#include "handoff/patterns/stage_times.hpp"

namespace handoff::bench {

inline constexpr const char* stage_counter_prefix = "stage.";

// stages and measured_seconds are sums over every timed iteration.
void set_stage_counters(benchmark::State& state, const patterns::stage_times& stages,
                        double measured_seconds);

}  // namespace handoff::bench

#pragma once
// Counters that let a report set a benchmark against this run's ceilings:
//   bytes, items                  what one iteration moves and computes;
//   floor_bytes.<ceiling>         bytes one iteration must move over that bandwidth ceiling;
//   floor_events.<ceiling>        events (launches, spawns) one iteration must pay that latency
//   for.
//   floor_seconds.<stage>         seconds one iteration must spend in a stage no ceiling prices,
//                                 measured in the same run (say, the CPU preparing a chunk);
//   floor_overlapped              1 when the stages run at the same time (a pipelined copy).
// The floor of a benchmark is the sum over its stages, bytes / bandwidth plus events x latency plus
// measured seconds; for
// a benchmark whose stages overlap it is the slowest stage instead.

#include <benchmark/benchmark.h>

#include <string_view>

namespace handoff::bench {

void set_traffic(benchmark::State& state, double bytes_per_iteration, double items_per_iteration);
void add_floor_bytes(benchmark::State& state, std::string_view ceiling, double bytes_per_iteration);
void add_floor_events(benchmark::State& state, std::string_view ceiling,
                      double events_per_iteration);

void add_floor_seconds(benchmark::State& state, std::string_view stage,
                       double seconds_per_iteration);

void set_floor_overlapped(benchmark::State& state);

inline constexpr std::string_view floor_overlapped_counter = "floor_overlapped";
inline constexpr std::string_view floor_bytes_prefix = "floor_bytes.";
inline constexpr std::string_view floor_events_prefix = "floor_events.";
inline constexpr std::string_view floor_seconds_prefix = "floor_seconds.";

}  // namespace handoff::bench

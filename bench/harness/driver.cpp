#include "driver.hpp"

namespace handoff::bench {

void set_figures(benchmark::State& state, const std::vector<patterns::named_figure>& figures) {
  for (const auto& figure : figures)
    state.counters[figure.name] = figure.value;
}

void set_floor(benchmark::State& state, const patterns::floor_terms& floor) {
  for (const auto& [ceiling, bytes] : floor.bytes)
    add_floor_bytes(state, ceiling, bytes);
  for (const auto& [ceiling, events] : floor.events)
    add_floor_events(state, ceiling, events);
  for (const auto& [stage, seconds] : floor.seconds)
    add_floor_seconds(state, stage, seconds);
  if (floor.overlapped) set_floor_overlapped(state);
}

}  // namespace handoff::bench

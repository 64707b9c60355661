#include "traffic.hpp"

#include <string>

namespace handoff::bench {
namespace {

void set_counter(benchmark::State& state, std::string_view prefix, std::string_view ceiling,
                 double value) {
  state.counters[std::string(prefix) + std::string(ceiling)] = value;
}

}  // namespace

void set_traffic(benchmark::State& state, double bytes_per_iteration, double items_per_iteration) {
  state.counters["bytes"] = bytes_per_iteration;
  state.counters["items"] = items_per_iteration;
  state.SetBytesProcessed(
      static_cast<int64_t>(bytes_per_iteration * static_cast<double>(state.iterations())));
  state.SetItemsProcessed(
      static_cast<int64_t>(items_per_iteration * static_cast<double>(state.iterations())));
}

void add_floor_bytes(benchmark::State& state, std::string_view ceiling,
                     double bytes_per_iteration) {
  set_counter(state, floor_bytes_prefix, ceiling, bytes_per_iteration);
}

void add_floor_events(benchmark::State& state, std::string_view ceiling,
                      double events_per_iteration) {
  set_counter(state, floor_events_prefix, ceiling, events_per_iteration);
}

void add_floor_seconds(benchmark::State& state, std::string_view stage,
                       double seconds_per_iteration) {
  set_counter(state, floor_seconds_prefix, stage, seconds_per_iteration);
}

void set_floor_overlapped(benchmark::State& state) {
  state.counters[std::string(floor_overlapped_counter)] = 1;
}

}  // namespace handoff::bench

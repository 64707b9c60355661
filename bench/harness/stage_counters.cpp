#include "stage_counters.hpp"

#include <algorithm>
#include <string>

namespace handoff::bench {

void set_stage_counters(benchmark::State& state, const patterns::stage_times& stages,
                        double measured_seconds) {
  const auto set = [&](const char* stage, double seconds) {
    state.counters[std::string(stage_counter_prefix) + stage] = seconds;
  };
  set("prep", stages.prep);
  set("serialize", stages.serialize);
  set("h2d", stages.h2d);
  set("kernel", stages.kernel);
  set("d2h", stages.d2h);
  set("deserialize", stages.deserialize);
  set("post", stages.post);
  set("wait", std::max(0.0, measured_seconds - stages.total()));
}

}  // namespace handoff::bench

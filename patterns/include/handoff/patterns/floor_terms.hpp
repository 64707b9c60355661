#pragma once
// A variant's floor model, as data: what one run must move over each ceiling, the latencies it
// must pay, and the seconds it must spend in stages that no ceiling prices (measured in the same
// run). The benchmark driver turns these into floor_bytes.*, floor_events.*, floor_seconds.* and
// floor_overlapped counters, which the reports price with the same run's ceilings. The floor is
// the sum of the terms, or their largest when the stages overlap.

#include <string>
#include <utility>
#include <vector>

#include "handoff/patterns/stage_times.hpp"

namespace handoff::patterns {

struct floor_terms {
  std::vector<std::pair<std::string, double>> bytes;    // ceiling name, bytes per run
  std::vector<std::pair<std::string, double>> events;   // ceiling name, events per run
  std::vector<std::pair<std::string, double>> seconds;  // stage name, seconds per run
  bool overlapped = false;

  floor_terms& add_bytes(std::string ceiling, double per_run) {
    bytes.emplace_back(std::move(ceiling), per_run);
    return *this;
  }
  floor_terms& add_events(std::string ceiling, double per_run) {
    events.emplace_back(std::move(ceiling), per_run);
    return *this;
  }
  floor_terms& add_seconds(std::string stage, double per_run) {
    seconds.emplace_back(std::move(stage), per_run);
    return *this;
  }
};

// Extra figures a variant reports about itself (a worker count, an iteration the solver converged
// at); they become counters of the same names.
struct named_figure {
  std::string name;
  double value = 0;
};

// What a floor model may know of the run it prices: whether it was cold, the stage times per run
// the variant reported (a kernel the floor cannot price from a ceiling, say), and the session's
// figures, among them what it measured in the same run (the time to prepare one chunk, say).
struct measured_run {
  bool cold = false;
  stage_times stages_per_run;
  std::vector<named_figure> figures;
};

}  // namespace handoff::patterns

#include "handoff/patterns/independent_tasks/stage_marks.hpp"

#include <algorithm>

namespace handoff::patterns::independent_tasks {

stage_marks::stage_marks(std::size_t spans) : seconds_(spans, 0.0) {
  events_.reserve(spans + 1);
  for (std::size_t index = 0; index <= spans; ++index)
    events_.emplace_back();
}

void stage_marks::begin_run() {
  if (runs_ >= 2) collect();  // run 0 is the untimed one
  ++runs_;
}

void stage_marks::mark(std::size_t index, cudaStream_t stream) const {
  events_.at(index).record(stream);
}

std::vector<double> stage_marks::report() {
  if (runs_ >= 2) collect();
  const int timed = std::max(0, runs_ - 1);
  auto means = seconds_;
  for (auto& seconds : means)
    seconds = timed > 0 ? seconds / timed : 0.0;
  std::ranges::fill(seconds_, 0.0);
  runs_ = 0;
  return means;
}

void stage_marks::collect() {
  for (std::size_t span = 0; span < seconds_.size(); ++span)
    seconds_[span] += elapsed_milliseconds(events_[span], events_[span + 1]) * 1e-3;
}

}  // namespace handoff::patterns::independent_tasks

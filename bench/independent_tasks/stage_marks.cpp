#include "stage_marks.hpp"

namespace handoff::bench {

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

const std::vector<double>& stage_marks::finish() {
  if (runs_ >= 2) collect();
  runs_ = 0;
  return seconds_;
}

void stage_marks::collect() {
  for (std::size_t span = 0; span < seconds_.size(); ++span)
    seconds_[span] += elapsed_milliseconds(events_[span], events_[span + 1]) * 1e-3;
}

}  // namespace handoff::bench

#pragma once
// Seconds one handoff spent in each stage, as the DESIGN names them: prep, serialize, h2d, kernel,
// d2h, deserialize, post and wait. Every process adds what it timed itself (a worker reports its
// own stages back), and whatever of the coordinator's wall clock the stages do not account for is
// wait: a channel, or one side waiting on the other. Stages that run at the same time (a pipeline)
// can add up to more than the wall clock; wait is then 0.

#include <cmath>

namespace handoff::patterns {

// Whether a stage could have taken this long: finite and not negative. A time another process
// reports is checked with it before it joins a row.
inline bool possible_seconds(double seconds) noexcept {
  return std::isfinite(seconds) && seconds >= 0;
}

struct stage_times {
  double prep = 0;
  double serialize = 0;
  double h2d = 0;
  double kernel = 0;
  double d2h = 0;
  double deserialize = 0;
  double post = 0;

  stage_times& operator+=(const stage_times& other) {
    prep += other.prep;
    serialize += other.serialize;
    h2d += other.h2d;
    kernel += other.kernel;
    d2h += other.d2h;
    deserialize += other.deserialize;
    post += other.post;
    return *this;
  }
  stage_times& scale(double factor) {
    prep *= factor;
    serialize *= factor;
    h2d *= factor;
    kernel *= factor;
    d2h *= factor;
    deserialize *= factor;
    post *= factor;
    return *this;
  }
  double total() const { return prep + serialize + h2d + kernel + d2h + deserialize + post; }
  // Every stage a possible_seconds.
  bool possible() const noexcept {
    return possible_seconds(prep) && possible_seconds(serialize) && possible_seconds(h2d) &&
           possible_seconds(kernel) && possible_seconds(d2h) && possible_seconds(deserialize) &&
           possible_seconds(post);
  }
};

// One stage, named by its member: &stage_times::kernel.
using stage_member = double stage_times::*;

// The stages of an average run, as a row reports them.
struct stages_of_a_run {
  stage_times stages;
  // The stages span the whole run (events around all of it, or a run that is one stage): none of
  // the run is a wait.
  bool span_the_run = false;
};

// A run that is one stage as a whole, timed by the driver's own start and stop: mean_seconds of
// that stage, and no wait.
inline stages_of_a_run whole_run_as(stage_member stage, double mean_seconds) {
  stages_of_a_run run{.stages = {}, .span_the_run = true};
  run.stages.*stage = mean_seconds;
  return run;
}

}  // namespace handoff::patterns

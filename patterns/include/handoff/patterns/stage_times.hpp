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

}  // namespace handoff::patterns

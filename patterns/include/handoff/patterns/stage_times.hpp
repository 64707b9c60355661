#pragma once
// Seconds one handoff spent in each stage, as the DESIGN names them: prep, serialize, h2d, kernel,
// d2h, deserialize, post and wait. Every process adds what it timed itself (a worker reports its
// own stages back), and whatever of the coordinator's wall clock the stages do not account for is
// wait: a channel, or one side waiting on the other. Stages that run at the same time (a pipeline)
// can add up to more than the wall clock; wait is then 0.

namespace handoff::patterns {

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
};

}  // namespace handoff::patterns

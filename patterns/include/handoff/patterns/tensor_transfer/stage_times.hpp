#pragma once
// Seconds one transfer spent in each stage, as the DESIGN names them. Both processes add to it:
// the sender times d2h and serialize, the receiver deserialize and h2d, and whatever of the
// coordinator's wall clock is left is wait (the channel itself, and one side waiting on the other).

namespace handoff::patterns {

struct stage_times {
  double d2h = 0;
  double serialize = 0;
  double deserialize = 0;
  double h2d = 0;

  stage_times& operator+=(const stage_times& other) {
    d2h += other.d2h;
    serialize += other.serialize;
    deserialize += other.deserialize;
    h2d += other.h2d;
    return *this;
  }
  double total() const { return d2h + serialize + deserialize + h2d; }
};

}  // namespace handoff::patterns

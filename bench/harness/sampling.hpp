#pragma once
// The statistics of one row's samples and when to stop taking them. A row's figure is the median
// sample; its noise is the relative half-width of the median's distribution-free 95% confidence
// interval, whose ends are order statistics chosen from the binomial(n, 1/2) distribution (the
// interval assumes nothing about the shape of the times, which for hand-offs between processes
// is skewed and often has two modes). Sampling stops, as nvbench's criterion does, once there are
// enough samples and timed seconds and the noise is at the target, or at the row's time cap.

#include <cstddef>
#include <vector>

#include "bench_config.hpp"

namespace handoff::bench {

struct median_interval {
  double median = 0.0;
  double low = 0.0;
  double high = 0.0;
  double fastest = 0.0;  // the quickest sample
  // (high - low) / 2 / median; infinite for an empty or zero median.
  double noise() const noexcept;
};

// The 1-based ranks (j, n + 1 - j) of the order statistics that bound the median with at least
// 95% confidence; j = 0 when n is too small for any (n < 6): the interval is then the whole range.
std::size_t lower_rank_of_median_interval(std::size_t n);

// Reorders samples (partially) to find the three order statistics.
median_interval median_with_interval(std::vector<double>& samples);

// Decides, after each sample, whether the row has enough, and keeps the checks of the noise (each
// one a partial sort) rarer as the count grows, so that a microsecond row is not slowed by them.
class stopping_rule {
 public:
  explicit stopping_rule(const sampling_settings& settings) : settings_(settings) {}
  // samples: the timed seconds so far; timed_seconds: their sum; elapsed: since sampling began.
  bool should_stop(std::vector<double>& samples, double timed_seconds, double elapsed_seconds);
  bool stopped_at_cap() const noexcept { return stopped_at_cap_; }

 private:
  sampling_settings settings_;
  std::size_t next_check_ = 0;
  double next_check_time_ = 0.0;
  bool stopped_at_cap_ = false;
};

}  // namespace handoff::bench

#pragma once
// The test hook behind --handoff-plant-slowdown: a delay inside the timed region of the rows whose
// name matches the regex, calibrated so that the row's median grows by the asked fraction. It
// shows that compare can see a slowdown of that size on this machine; off by default, and when off
// no timing path changes. CUDA-event rows spin a kernel on their stream before the stop event (a
// host-side wait would not show on the GPU's timeline); wall-clock rows busy-wait before the stop
// timestamp; rows that time themselves busy-wait after the run and add what the wait measured.

#include <cuda_runtime_api.h>

#include <string>

#include "bench_config.hpp"

namespace handoff::bench {

class planted_delay {
 public:
  // Off unless plant is on for the row named row_name (and, planted in alternate passes, pass is
  // one of them).
  static planted_delay for_row(const planted_slowdown& plant, const std::string& row_name,
                               int pass);

  bool active() const noexcept { return fraction_ > 0.0; }
  double fraction() const noexcept { return fraction_; }
  double delay_seconds() const noexcept { return delay_seconds_; }

  // The delay for a run whose undelayed median is seconds.
  void aim_at(double seconds) noexcept {
    reference_seconds_ = seconds;
    delay_seconds_ = aimed_seconds_ = fraction_ * seconds;
  }
  // Whether a delay with fixed_seconds of cost on top (a kernel launch) plants a fraction that
  // needs correcting: only when that cost is more than a twentieth of the aim. Below, the delay
  // adds its own length to within a twentieth of the fraction, and calibration batches, which are
  // as noisy as the row, would only move the fraction planted from one process to the next.
  bool fixed_cost_matters(double fixed_seconds) const noexcept {
    return fixed_seconds > aimed_seconds_ / 20.0;
  }
  // One correction step: the delayed median came out realised_fraction slower.
  void correct(double realised_fraction) noexcept;
  // The row's undelayed runs now take plain_seconds: the delay keeps its ratio to them, so that a
  // machine that slows down or speeds up during the row does not shrink or swell the fraction
  // planted (with samples taken in pairs, plain then planted).
  void follow(double plain_seconds) noexcept;

  void on_stream(cudaStream_t stream) const;
  void busy_wait() const noexcept;
  // busy_wait(), returning the seconds it took.
  double measured_busy_wait() const noexcept;

 private:
  double fraction_ = 0.0;
  double delay_seconds_ = 0.0;
  double aimed_seconds_ = 0.0;
  double reference_seconds_ = 0.0;
};

}  // namespace handoff::bench

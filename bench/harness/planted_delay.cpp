#include "planted_delay.hpp"

#include <algorithm>
#include <cstdint>
#include <regex>

#include "bench_config.hpp"
#include "handoff/spin.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::bench {

planted_delay planted_delay::for_row(const planted_slowdown& plant, const std::string& row_name,
                                     int pass) {
  planted_delay delay;
  if (!plant.active()) return delay;
  if (plant.alternation == plant_alternation::passes && pass % 2 == 1) return delay;
  // Matched as Google Benchmark matches its filter: searched in the name with its suffix.
  const std::regex rows(plant.rows_regex, std::regex::extended);
  if (std::regex_search(row_name + "/manual_time", rows)) delay.fraction_ = plant.fraction;
  return delay;
}

void planted_delay::correct(double realised_fraction) noexcept {
  if (realised_fraction <= 0.0) return;
  // Fixed costs (a kernel launch) come with any delay: scale only the part that follows it, and
  // never further than 2x from the first aim, so that noisy calibration batches cannot run away.
  const double scale = fraction_ / realised_fraction;
  delay_seconds_ = std::clamp(delay_seconds_ * scale, aimed_seconds_ / 2, aimed_seconds_ * 2);
}

void planted_delay::follow(double plain_seconds) noexcept {
  if (!(reference_seconds_ > 0.0) || !(plain_seconds > 0.0)) return;
  delay_seconds_ *= plain_seconds / reference_seconds_;
  reference_seconds_ = plain_seconds;
}

void planted_delay::on_stream(cudaStream_t stream) const {
  spin_on_stream(stream, static_cast<std::uint64_t>(delay_seconds_ * 1e9));
}

void planted_delay::busy_wait() const noexcept {
  const auto start = wall_clock::now();
  while (seconds_since(start) < delay_seconds_) {
  }
}

double planted_delay::measured_busy_wait() const noexcept {
  const auto start = wall_clock::now();
  busy_wait();
  return seconds_since(start);
}

}  // namespace handoff::bench

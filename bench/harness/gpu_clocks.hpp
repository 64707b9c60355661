#pragma once
// The GPU's clocks as NVML reports them, read (never set) before and after a row samples, so that a
// figure measured at a lowered clock is flagged rather than trusted. NVML is loaded at run time;
// without it, or without a GPU, every read is empty and rows simply carry no clock counters.

#include <optional>

namespace handoff::bench {

struct gpu_clock_reading {
  unsigned sm_mhz = 0;
  unsigned memory_mhz = 0;
  unsigned sm_max_mhz = 0;
  // NVML's clock event (throttle) reasons, without the idle and application-clock-setting bits,
  // which say nothing about the row.
  unsigned long long reasons = 0;
  // A thermal, power-cap or hardware slowdown, or an SM clock below 90% of its maximum.
  bool lowered() const noexcept;
  // The SM clock still near its idle floor: the GPU has not yet ramped up for the row.
  bool idle() const noexcept;
};

// The current CUDA device's clocks, or nothing where NVML or the device is not there.
std::optional<gpu_clock_reading> read_gpu_clocks();

// What a row saw over its samples: the lowest SM clock, every reason seen.
struct gpu_clock_watch {
  void add(const std::optional<gpu_clock_reading>& reading);
  std::optional<gpu_clock_reading> seen;
};

}  // namespace handoff::bench

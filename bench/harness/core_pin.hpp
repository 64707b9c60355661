#pragma once
// Holds the calling thread on one core for a scope, then gives it back the cores it had. A row
// measured on one thread alone is pinned: left to the scheduler it starts on a different core in
// each process, with other caches and another clock, and its figure moves between processes by far
// more than between its samples. The core is the last one the thread may use (the first tends to
// take the machine's interrupts), so every process of a run picks the same one.

#include <sched.h>
#include <optional>

namespace handoff::bench {

class core_pin {
 public:
  // Pins only when asked and when the thread may run on more than one core.
  explicit core_pin(bool wanted);
  ~core_pin();
  core_pin(const core_pin&) = delete;
  core_pin& operator=(const core_pin&) = delete;

  // The core held, or none.
  std::optional<int> core() const noexcept { return core_; }

 private:
  cpu_set_t previous_{};
  std::optional<int> core_;
};

}  // namespace handoff::bench

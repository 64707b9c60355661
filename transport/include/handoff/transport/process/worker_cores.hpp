#pragma once
// With HANDOFF_WORKER_CORES=held, holds each worker of a pool on a core of its own while the pool
// lives; by default the scheduler places them. Holding was meant to narrow the spread of rows timed
// across workers between processes, but it did not narrow the one it was for and slowed some pools
// (docs/design/comparing-runs.md), so it is an experiment's switch. Held cores come from those this
// process may run on, never the first (it tends to take the machine's interrupts) nor the last (a
// row measured on one thread is held there, bench/harness/core_pin.hpp), nor one that another pool
// of this process holds; a pool that does not fit in the free cores is left to the scheduler whole.

#include <sys/types.h>

#include <cstddef>
#include <span>
#include <vector>

namespace handoff::transport {

// The cores for `count` workers: the highest free ones among `allowed` (ascending) less its first
// and last, or none where fewer than `count` are free.
std::vector<int> plan_worker_cores(std::span<const int> allowed, std::span<const int> held,
                                   std::size_t count);

// How this process's pools are placed, as the run's settings record it: "held" or "scheduler".
const char* worker_placement();

class worker_cores {
 public:
  worker_cores() = default;
  // Where the environment asks for it, claims a core for each worker and holds it there; claims
  // none where they do not all fit or the machine refuses.
  explicit worker_cores(std::span<const pid_t> workers);
  worker_cores(worker_cores&& other) noexcept;
  worker_cores& operator=(worker_cores&& other) noexcept;
  ~worker_cores();

  // The core of each worker, in the workers' order; empty where the scheduler places them.
  std::span<const int> cores() const noexcept { return cores_; }

 private:
  void release() noexcept;
  std::vector<int> cores_;
};

}  // namespace handoff::transport

#pragma once
// Holds each worker of a pool on a core of its own while the pool lives. Left to the scheduler, a
// pool's workers land on other cores in each process, at times two on one, and a row timed across
// them moves between processes by more than between its samples. The cores come from those this
// process may run on, never the first (it tends to take the machine's interrupts) nor the last (a
// row measured on one thread is held there, bench/harness/core_pin.hpp), nor one that another pool
// of this process holds. A pool that does not fit in the free cores is left to the scheduler
// whole, as is every pool when HANDOFF_WORKER_CORES=scheduler.

#include <sys/types.h>

#include <cstddef>
#include <span>
#include <vector>

namespace handoff::transport {

// The cores for `count` workers: the highest free ones among `allowed` (ascending) less its first
// and last, or none where fewer than `count` are free.
std::vector<int> plan_worker_cores(std::span<const int> allowed, std::span<const int> held,
                                   std::size_t count);

class worker_cores {
 public:
  worker_cores() = default;
  // Claims a core for each worker and holds it there; claims none where they do not all fit, the
  // environment asks for the scheduler, or the machine refuses.
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

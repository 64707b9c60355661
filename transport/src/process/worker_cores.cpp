#include "handoff/transport/process/worker_cores.hpp"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "handoff/transport/process_state.hpp"

namespace handoff::transport {
namespace {

// The cores the pools of this process hold.
struct held_cores {
  std::mutex lock;
  std::vector<int> cores;
};

held_cores& process_held_cores() {
  static held_cores held;
  return held;
}

std::vector<int> cores_this_process_may_use() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof(mask), &mask) != 0) return {};
  std::vector<int> allowed;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &mask)) allowed.push_back(cpu);
  return allowed;
}

bool holding_asked_for() {
  const char* setting = std::getenv("HANDOFF_WORKER_CORES");
  return setting != nullptr && std::string_view(setting) == "held";
}

cpu_set_t mask_of(std::span<const int> cores) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  for (const int core : cores)
    CPU_SET(core, &mask);
  return mask;
}

// Every thread the worker has started so far, and through them every thread it starts later,
// which inherits its creator's mask: a worker may have started threads (its CUDA context's, say)
// before it is held.
bool hold_every_thread(pid_t worker, const cpu_set_t& mask) {
  const auto threads = process_threads(worker);
  for (const int thread : threads) {
    if (sched_setaffinity(thread, sizeof(mask), &mask) != 0) return false;
  }
  // Without procfs, the worker's first thread at least.
  return !threads.empty() || sched_setaffinity(worker, sizeof(mask), &mask) == 0;
}

}  // namespace

const char* worker_placement() {
  return holding_asked_for() ? "held" : "scheduler";
}

std::vector<int> plan_worker_cores(std::span<const int> allowed, std::span<const int> held,
                                   std::size_t count) {
  if (count == 0 || allowed.size() < 3) return {};
  std::vector<int> plan;
  for (auto core = allowed.rbegin() + 1; core + 1 != allowed.rend() && plan.size() < count;
       ++core) {
    if (std::find(held.begin(), held.end(), *core) == held.end()) plan.push_back(*core);
  }
  if (plan.size() < count) return {};
  return plan;
}

worker_cores::worker_cores(std::span<const pid_t> workers) {
  if (workers.empty() || !holding_asked_for()) return;
  auto& held = process_held_cores();
  const std::lock_guard guard(held.lock);
  auto plan = plan_worker_cores(cores_this_process_may_use(), held.cores, workers.size());
  if (plan.empty()) return;
  for (std::size_t index = 0; index < workers.size(); ++index) {
    if (hold_every_thread(workers[index], mask_of(std::span(&plan[index], 1)))) continue;
    // A machine that refuses (a container's policy) leaves the whole pool to the scheduler,
    // the workers already held included.
    const auto anywhere = mask_of(cores_this_process_may_use());
    for (std::size_t undone = 0; undone <= index; ++undone)
      hold_every_thread(workers[undone], anywhere);
    return;
  }
  held.cores.insert(held.cores.end(), plan.begin(), plan.end());
  cores_ = std::move(plan);
}

worker_cores::worker_cores(worker_cores&& other) noexcept
    : cores_(std::exchange(other.cores_, {})) {}

worker_cores& worker_cores::operator=(worker_cores&& other) noexcept {
  if (this != &other) {
    release();
    cores_ = std::exchange(other.cores_, {});
  }
  return *this;
}

worker_cores::~worker_cores() {
  release();
}

void worker_cores::release() noexcept {
  if (cores_.empty()) return;
  auto& held = process_held_cores();
  const std::lock_guard guard(held.lock);
  std::erase_if(held.cores, [this](int core) {
    return std::find(cores_.begin(), cores_.end(), core) != cores_.end();
  });
  cores_.clear();
}

}  // namespace handoff::transport

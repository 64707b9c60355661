#include "handoff/transport/process/worker_cores.hpp"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <string_view>
#include <utility>

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

bool hold_on_core(pid_t worker, int core) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(core, &one);
  return sched_setaffinity(worker, sizeof(one), &one) == 0;
}

}  // namespace

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
    // A machine that refuses (a container's policy) leaves the pool to the scheduler.
    if (!hold_on_core(workers[index], plan[index])) return;
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

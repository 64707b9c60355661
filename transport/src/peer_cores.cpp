#include "handoff/transport/peer_cores.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

#include "handoff/transport/process_state.hpp"

namespace handoff::transport {
namespace {

struct peer_registry {
  std::mutex mutex;
  std::vector<pid_t> children;
  std::atomic<bool> parent_is_peer{false};
};

peer_registry& registry() {
  static peer_registry peers;
  return peers;
}

std::vector<pid_t> current_peers() {
  auto& peers = registry();
  std::vector<pid_t> found;
  {
    const std::scoped_lock lock(peers.mutex);
    found = peers.children;
  }
  if (peers.parent_is_peer.load(std::memory_order_relaxed)) found.push_back(::getppid());
  return found;
}

}  // namespace

void count_child_as_peer(pid_t child) {
  auto& peers = registry();
  const std::scoped_lock lock(peers.mutex);
  peers.children.push_back(child);
}

void forget_child_peer(pid_t child) noexcept {
  auto& peers = registry();
  const std::scoped_lock lock(peers.mutex);
  std::erase(peers.children, child);
}

void count_parent_as_peer() noexcept {
  registry().parent_is_peer.store(true, std::memory_order_relaxed);
}

bool a_peer_last_ran_on_this_core() noexcept {
  thread_local std::chrono::steady_clock::time_point next_look{};
  thread_local bool shares_a_core = true;
  const auto now = std::chrono::steady_clock::now();
  if (now < next_look) return shares_a_core;
  next_look = now + peer_look_interval;
  try {
    const int here = ::sched_getcpu();
    const auto peers = current_peers();
    shares_a_core = here < 0 || std::ranges::any_of(peers, [here](pid_t peer) {
                      return process_last_core(peer) == here;
                    });
  } catch (...) {
    shares_a_core = true;
  }
  return shares_a_core;
}

}  // namespace handoff::transport

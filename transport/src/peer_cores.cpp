#include "handoff/transport/peer_cores.hpp"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <mutex>
#include <string_view>
#include <vector>

namespace handoff::transport {
namespace {

// /proc/PID/stat's fields after the command name start at field 3; the last core is field 39.
constexpr int fields_before_core = 39 - 3;

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

int last_core_of(pid_t process) noexcept {
  std::array<char, 32> path{};
  std::snprintf(path.data(), path.size(), "/proc/%d/stat", static_cast<int>(process));
  const int fd = ::open(path.data(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  std::array<char, 1024> buffer{};
  const ssize_t got = ::read(fd, buffer.data(), buffer.size());
  ::close(fd);
  if (got <= 0) return -1;
  std::string_view stat(buffer.data(), static_cast<std::size_t>(got));
  // The command name may hold spaces and parentheses; the fields after it follow the last ')'.
  const auto name_end = stat.rfind(')');
  if (name_end == std::string_view::npos || name_end + 2 >= stat.size()) return -1;
  stat.remove_prefix(name_end + 2);
  for (int field = 0; field < fields_before_core; ++field) {
    const auto space = stat.find(' ');
    if (space == std::string_view::npos) return -1;
    stat.remove_prefix(space + 1);
  }
  int core = -1;
  const auto [end, error] = std::from_chars(stat.data(), stat.data() + stat.size(), core);
  return error == std::errc{} ? core : -1;
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
                      return last_core_of(peer) == here;
                    });
  } catch (...) {
    shares_a_core = true;
  }
  return shares_a_core;
}

}  // namespace handoff::transport

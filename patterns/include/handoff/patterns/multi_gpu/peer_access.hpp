#pragma once
// Peer access: whether one GPU may read and write another's memory directly (over NVLink or PCIe)
// rather than through the host. It is a property of the process's contexts, so the suite turns it
// on for a scope and off again, and keeps its own record of what it turned on: CUDA offers no
// query for "enabled", only for "possible" (cudaDeviceCanAccessPeer), and the launch check needs
// the former.

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace handoff::patterns::multi_gpu {

class peer_access_unavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Why GPU `hub` and GPUs 0..devices-1 cannot reach each other directly, both ways, given
// can_access[i][j] (cudaDeviceCanAccessPeer); empty when they can. Pure, so topologies that no
// test machine has can be tested.
std::string peer_access_unavailable_reason(const std::vector<std::vector<bool>>& can_access,
                                           int hub, int devices);

// Pairs (accessor, owner) the hub star needs: the hub and every other device, both ways.
std::vector<std::pair<int, int>> hub_pairs(int hub, int devices);

// Enables access for each (accessor, owner) pair for its lifetime and disables, on the way out,
// exactly the pairs it enabled (not those some other scope had already enabled). A pair the
// topology does not allow is peer_access_unavailable, naming it.
class scoped_peer_access {
 public:
  explicit scoped_peer_access(std::vector<std::pair<int, int>> pairs);
  scoped_peer_access(const scoped_peer_access&) = delete;
  scoped_peer_access& operator=(const scoped_peer_access&) = delete;
  ~scoped_peer_access();

 private:
  void release() noexcept;
  std::vector<std::pair<int, int>> enabled_by_this_scope_;
};

// True while a scoped_peer_access lets `accessor` reach `owner`'s memory (or they are one device).
bool peer_access_enabled(int accessor, int owner);

}  // namespace handoff::patterns::multi_gpu

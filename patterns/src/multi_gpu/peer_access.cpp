#include "handoff/patterns/multi_gpu/peer_access.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <mutex>
#include <set>

#include "handoff/cuda_check.hpp"
#include "handoff/scoped_device.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

std::mutex registry_mutex;
std::set<std::pair<int, int>>& enabled_pairs() {
  static std::set<std::pair<int, int>> pairs;
  return pairs;
}

bool can_access_peer(int accessor, int owner) {
  int possible = 0;
  HANDOFF_CUDA_CHECK(cudaDeviceCanAccessPeer(&possible, accessor, owner));
  return possible != 0;
}

// True when this call enabled it; false when it was already on (left to whoever turned it on).
bool enable(int accessor, int owner) {
  const scoped_device on_accessor(accessor);
  const cudaError_t status = cudaDeviceEnablePeerAccess(owner, 0);
  if (status == cudaErrorPeerAccessAlreadyEnabled) {
    (void)cudaGetLastError();
    return false;
  }
  HANDOFF_CUDA_CHECK(status);
  return true;
}

void disable(int accessor, int owner) {
  const scoped_device on_accessor(accessor);
  const cudaError_t status = cudaDeviceDisablePeerAccess(owner);
  if (status == cudaErrorPeerAccessNotEnabled) {
    (void)cudaGetLastError();
    return;
  }
  HANDOFF_CUDA_CHECK(status);
}

std::string gpu_pair(int accessor, int owner) {
  return "GPU " + std::to_string(accessor) + " cannot access GPU " + std::to_string(owner) +
         "'s memory directly (cudaDeviceCanAccessPeer is 0)";
}

}  // namespace

std::string peer_access_unavailable_reason(const std::vector<std::vector<bool>>& can_access,
                                           int hub, int devices) {
  for (const auto& [accessor, owner] : hub_pairs(hub, devices)) {
    const bool known = accessor < static_cast<int>(can_access.size()) &&
                       owner < static_cast<int>(can_access[accessor].size());
    if (!known || !can_access[accessor][owner]) {
      return gpu_pair(accessor, owner) +
             "; this topology routes peer copies through the host, so a peer gather is not run";
    }
  }
  return {};
}

std::vector<std::pair<int, int>> hub_pairs(int hub, int devices) {
  std::vector<std::pair<int, int>> pairs;
  for (int other = 0; other < devices; ++other) {
    if (other == hub) continue;
    pairs.emplace_back(hub, other);
    pairs.emplace_back(other, hub);
  }
  return pairs;
}

scoped_peer_access::scoped_peer_access(std::vector<std::pair<int, int>> pairs) {
  try {
    for (const auto& [accessor, owner] : pairs) {
      if (accessor == owner) continue;
      if (!can_access_peer(accessor, owner)) {
        throw peer_access_unavailable(gpu_pair(accessor, owner));
      }
      if (enable(accessor, owner)) {
        enabled_by_this_scope_.emplace_back(accessor, owner);
        const std::scoped_lock lock(registry_mutex);
        enabled_pairs().emplace(accessor, owner);
      }
    }
  } catch (...) {
    release();
    throw;
  }
}

scoped_peer_access::~scoped_peer_access() {
  release();
}

void scoped_peer_access::release() noexcept {
  for (const auto& [accessor, owner] : enabled_by_this_scope_) {
    try {
      disable(accessor, owner);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "handoff: could not turn peer access off: %s\n", error.what());
    }
    const std::scoped_lock lock(registry_mutex);
    enabled_pairs().erase({accessor, owner});
  }
  enabled_by_this_scope_.clear();
}

bool peer_access_enabled(int accessor, int owner) {
  if (accessor == owner) return true;
  const std::scoped_lock lock(registry_mutex);
  return enabled_pairs().contains({accessor, owner});
}

}  // namespace handoff::patterns::multi_gpu

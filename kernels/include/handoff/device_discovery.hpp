#pragma once
// What GPUs this process can use. Never aborts: with no driver or no device it answers 0 and says
// why, so every caller can skip GPU work with a reason instead of crashing.

#include <cstdint>
#include <string>
#include <vector>

namespace handoff {

struct gpu_count_result {
  int count = 0;
  std::string reason;  // empty when count > 0
};

gpu_count_result gpu_count() noexcept;

struct gpu_description {
  int ordinal = 0;
  std::string name;
  std::string uuid;
  std::string pci_bus_id;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessors = 0;
  std::uint64_t memory_bytes = 0;
  int sm_clock_max_khz = 0;
  int memory_clock_max_khz = 0;
  int memory_bus_width_bits = 0;
  std::string pcie_link;  // e.g. "gen5 x16", or "unknown" where sysfs does not say
};

gpu_description describe_gpu(int ordinal);

// peer_access[i][j] is true when device i can map device j's memory.
std::vector<std::vector<bool>> peer_access_matrix(int count);

}  // namespace handoff

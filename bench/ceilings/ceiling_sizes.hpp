#pragma once
// Transfer sizes for the bandwidth ceilings: large enough that fixed per-call costs vanish
// (256 MiB, as the reference figures use), swept where a path's speed depends on size, and tiny
// in smoke runs.

#include <cstddef>
#include <vector>

#include "../harness/bench_config.hpp"

namespace handoff::bench {

inline constexpr std::size_t mebibyte = std::size_t{1} << 20;

inline std::size_t ceiling_transfer_bytes(const bench_config& config) {
  return config.smoke ? mebibyte : 256 * mebibyte;
}

// The host channels' gigabyte sizes (seconds a row, with their allocation and verification) are
// the full profile's. The PCIe and device copies keep theirs: rows move a gigabyte (multi_gpu at
// 2^28 floats), and their floors must use a ceiling measured at that size.
inline std::vector<std::size_t> with_gigabyte(const bench_config& config,
                                              std::vector<std::size_t> sizes) {
  if (config.profile == bench_profile::full) sizes.push_back(1024 * mebibyte);
  return sizes;
}

inline std::vector<std::size_t> pcie_sweep_bytes(const bench_config& config) {
  if (config.smoke) return {mebibyte};
  return {4 * mebibyte, 16 * mebibyte, 64 * mebibyte, 256 * mebibyte, 1024 * mebibyte};
}

// Host channels (pipe, memcpy) run faster while a message fits in the caches, so their ceilings
// start smaller than the PCIe sweep: a transfer of a few megabytes must not beat its own floor.
inline std::vector<std::size_t> host_channel_sweep_bytes(const bench_config& config) {
  if (config.smoke) return {mebibyte};
  return with_gigabyte(config,
                       {mebibyte, 4 * mebibyte, 16 * mebibyte, 64 * mebibyte, 256 * mebibyte});
}

inline std::vector<std::size_t> device_copy_sweep_bytes(const bench_config& config) {
  if (config.smoke) return {mebibyte};
  return {256 * mebibyte, 1024 * mebibyte};
}

}  // namespace handoff::bench

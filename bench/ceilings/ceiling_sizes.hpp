#pragma once
// Transfer sizes for the bandwidth ceilings: large enough that fixed per-call costs vanish
// (256 MiB, as the reference figures use), swept where a path's speed depends on size, and tiny
// in smoke runs.

#include <cstddef>
#include <vector>

#include "../harness/bench_config.hpp"
#include "handoff/patterns/multi_gpu/headline_size.hpp"

namespace handoff::bench {

inline constexpr std::size_t mebibyte = std::size_t{1} << 20;

inline std::size_t ceiling_transfer_bytes(const bench_config& config) {
  return config.smoke ? mebibyte : 256 * mebibyte;
}

// The host channels' gigabyte sizes (seconds a row, with their allocation and verification) are
// the full profile's.
inline std::vector<std::size_t> with_gigabyte(const bench_config& config,
                                              std::vector<std::size_t> sizes) {
  if (config.profile == bench_profile::full) sizes.push_back(1024 * mebibyte);
  return sizes;
}

// Up to the largest size a row moves over PCIe or copies on the device: a gibibyte where
// multi_gpu's headline rows move one (two or more GPUs), or in the full profile.
inline std::vector<std::size_t> pcie_sweep_bytes(const bench_environment& environment) {
  if (environment.config.smoke) return {mebibyte};
  std::vector<std::size_t> sizes{4 * mebibyte, 16 * mebibyte, 64 * mebibyte, 256 * mebibyte};
  if (environment.config.profile == bench_profile::full ||
      patterns::multi_gpu::headline_elements(sweep_settings_of(environment)) * sizeof(float) >=
          1024 * mebibyte) {
    sizes.push_back(1024 * mebibyte);
  }
  return sizes;
}

// Host channels (pipe, memcpy) run faster while a message fits in the caches, so their ceilings
// start smaller than the PCIe sweep: a transfer of a few megabytes must not beat its own floor.
inline std::vector<std::size_t> host_channel_sweep_bytes(const bench_config& config) {
  if (config.smoke) return {mebibyte};
  return with_gigabyte(config,
                       {mebibyte, 4 * mebibyte, 16 * mebibyte, 64 * mebibyte, 256 * mebibyte});
}

inline std::vector<std::size_t> device_copy_sweep_bytes(const bench_environment& environment) {
  if (environment.config.smoke) return {mebibyte};
  auto sizes = pcie_sweep_bytes(environment);
  std::erase_if(sizes, [](std::size_t bytes) { return bytes < 256 * mebibyte; });
  return sizes;
}

}  // namespace handoff::bench

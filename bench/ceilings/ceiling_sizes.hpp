#pragma once
// Transfer sizes for the bandwidth ceilings: large enough that fixed per-call costs vanish
// (256 MiB, as the reference figures use), tiny in smoke runs.

#include <cstddef>

#include "../harness/bench_config.hpp"

namespace handoff::bench {

inline std::size_t ceiling_transfer_bytes(const bench_config& config) {
  return config.smoke ? std::size_t{1} << 20 : std::size_t{256} << 20;
}

inline std::size_t device_copy_bytes(const bench_config& config) {
  return config.smoke ? std::size_t{1} << 20 : std::size_t{1} << 30;
}

}  // namespace handoff::bench

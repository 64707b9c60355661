#pragma once
// The ways a tensor can travel from process A to process B (seed 003 and beyond).

#include <array>
#include <cstdint>
#include <string_view>

namespace handoff::patterns {

enum class transfer_variant : std::uint32_t {
  queue = 1,       // the article's: framed bytes through a multiprocessing-style queue
  pipe = 2,        // the article's: framed bytes through a duplex pipe
  shm = 3,         // the article's: framed bytes copied through shared memory
  shm_pinned = 4,  // device-to-host straight into registered shared memory, pipelined in chunks
  cuda_ipc = 5,    // a legacy CUDA IPC memory handle plus an interprocess event: zero copy
  vmm_fd = 6,      // a cuMem allocation exported as a POSIX descriptor, passed with SCM_RIGHTS
};

inline constexpr std::array all_transfer_variants{
    transfer_variant::queue,      transfer_variant::pipe,     transfer_variant::shm,
    transfer_variant::shm_pinned, transfer_variant::cuda_ipc, transfer_variant::vmm_fd};

std::string_view variant_name(transfer_variant variant);

// queue, pipe and shm go through host memory and also run from CPU tensor to CPU tensor.
constexpr bool runs_host_only(transfer_variant variant) {
  return variant == transfer_variant::queue || variant == transfer_variant::pipe ||
         variant == transfer_variant::shm;
}

}  // namespace handoff::patterns

#pragma once
// What cuda_ipc and vmm_fd share: no bytes cross the host. The sender shares the memory its
// tensor lives in, and the receiver maps it and copies the tensor into its own. The receiver's
// reply is the release: only after it may the sender reuse or free the memory. Neither needs a
// channel of its own: the control connection carries their records.

#include <cstddef>
#include <cstdint>

#include "handoff/patterns/tensor_transfer/tensor_memory.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns {

int current_device();

// Copies on `on` and waits for the copy.
void copy_device_range(std::byte* destination, const std::byte* source, std::size_t bytes,
                       const stream& on);

// transfer_protocol_error unless the sender shares as many bytes as the destination holds.
void require_size(std::uint64_t announced, const tensor_memory& destination);

}  // namespace handoff::patterns

#include "handoff/patterns/tensor_transfer/transfer_variant.hpp"

#include <algorithm>
#include <cstring>

#include "handoff/patterns/tensor_transfer/transfer_protocol.hpp"

namespace handoff::patterns {

std::string_view variant_name(transfer_variant variant) {
  switch (variant) {
    case transfer_variant::queue:
      return "queue";
    case transfer_variant::pipe:
      return "pipe";
    case transfer_variant::shm:
      return "shm";
    case transfer_variant::shm_pinned:
      return "shm_pinned";
    case transfer_variant::cuda_ipc:
      return "cuda_ipc";
    case transfer_variant::vmm_fd:
      return "vmm_fd";
  }
  return "unknown";
}

void reply_record::set_error(std::string_view message) {
  ok = 0;
  const std::size_t length = std::min(message.size(), error.size() - 1);
  std::memcpy(error.data(), message.data(), length);
  error[length] = '\0';
}

std::string_view reply_record::error_text() const {
  return {error.data(), ::strnlen(error.data(), error.size())};
}

}  // namespace handoff::patterns

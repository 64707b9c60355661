#include "handoff/patterns/tensor_transfer/transfer_session.hpp"

#include <stdexcept>
#include <string>

#include "handoff/patterns/tensor_transfer/host_path_sessions.hpp"

namespace handoff::patterns {

std::unique_ptr<sender_session> make_sender_session(transfer_variant variant,
                                                    const tensor_memory& source) {
  switch (variant) {
    case transfer_variant::queue:
      return make_queue_sender(source.bytes());
    case transfer_variant::pipe:
      return make_pipe_sender();
    case transfer_variant::shm:
      return make_shm_sender();
    case transfer_variant::shm_pinned:
    case transfer_variant::cuda_ipc:
    case transfer_variant::vmm_fd:
      if (source.device_data() == nullptr) {
        throw std::invalid_argument(std::string(variant_name(variant)) +
                                    " moves device tensors only; it has no host-only form");
      }
      return make_device_direct_sender(variant, source);
  }
  throw std::invalid_argument("unknown transfer variant " +
                              std::to_string(static_cast<std::uint32_t>(variant)));
}

std::unique_ptr<receiver_session> open_receiver_session(const command_record& command,
                                                        connection& control,
                                                        deadline_clock::time_point deadline) {
  switch (command.variant) {
    case transfer_variant::queue:
      return open_queue_receiver(command, control, deadline);
    case transfer_variant::pipe:
      return open_pipe_receiver(control, deadline);
    case transfer_variant::shm:
      return open_shm_receiver(command, control, deadline);
    case transfer_variant::shm_pinned:
    case transfer_variant::cuda_ipc:
    case transfer_variant::vmm_fd:
      return open_device_direct_receiver(command, control, deadline);
  }
  throw std::invalid_argument("unknown transfer variant " +
                              std::to_string(static_cast<std::uint32_t>(command.variant)));
}

}  // namespace handoff::patterns

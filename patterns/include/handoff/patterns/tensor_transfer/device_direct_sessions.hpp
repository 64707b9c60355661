#pragma once
// The variants that move device memory without the article's serialisation.

#include <memory>

#include "handoff/patterns/tensor_transfer/transfer_session.hpp"

namespace handoff::patterns {

// The two sides disagree about what is on the channel: a chunk or a record that cannot belong to
// the tensor being moved.
class transfer_protocol_error : public process_error {
 public:
  using process_error::process_error;
};

std::unique_ptr<sender_session> make_shm_pinned_sender();
std::unique_ptr<receiver_session> open_shm_pinned_receiver(connection& control,
                                                           deadline_clock::time_point deadline);

std::unique_ptr<sender_session> make_cuda_ipc_sender(const tensor_memory& source);
std::unique_ptr<receiver_session> open_cuda_ipc_receiver();

std::unique_ptr<sender_session> make_vmm_fd_sender(const tensor_memory& source);
std::unique_ptr<receiver_session> open_vmm_fd_receiver();

}  // namespace handoff::patterns

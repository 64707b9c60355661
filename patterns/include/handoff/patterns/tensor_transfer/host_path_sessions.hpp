#pragma once
// The article's three ways through host memory, each framed and checksummed.

#include <memory>

#include "handoff/patterns/tensor_transfer/transfer_session.hpp"

namespace handoff::patterns {

std::unique_ptr<sender_session> make_pipe_sender();
std::unique_ptr<receiver_session> open_pipe_receiver(connection& control,
                                                     deadline_clock::time_point deadline);

std::unique_ptr<sender_session> make_queue_sender(std::uint64_t bytes);
std::unique_ptr<receiver_session> open_queue_receiver(const command_record& command,
                                                      connection& control,
                                                      deadline_clock::time_point deadline);

std::unique_ptr<sender_session> make_shm_sender();
std::unique_ptr<receiver_session> open_shm_receiver(const command_record& command,
                                                    connection& control,
                                                    deadline_clock::time_point deadline);

}  // namespace handoff::patterns

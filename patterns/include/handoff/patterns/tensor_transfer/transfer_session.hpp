#pragma once
// One variant's channel between the sender (process A) and the receiver (process B). A session is
// made untimed, opened (timed, for a cold transfer: channel set-up and any handle opening), used
// for any number of transfers, and closed untimed.

#include <memory>

#include "handoff/patterns/channels/connection.hpp"
#include "handoff/patterns/channels/peer_watch.hpp"
#include "handoff/patterns/stage_times.hpp"
#include "handoff/patterns/tensor_transfer/tensor_memory.hpp"
#include "handoff/patterns/tensor_transfer/transfer_protocol.hpp"

namespace handoff::patterns {

class sender_session {
 public:
  virtual ~sender_session() = default;
  // Creates the channel and hands the receiver its descriptors after an open_session command.
  virtual void open(connection& control, deadline_clock::time_point deadline) = 0;
  // Sends source after a receive command; the receiver's reply follows on control.
  // watch notices a dead receiver while the send waits on it.
  virtual void send(connection& control, const tensor_memory& source, stage_times& stages,
                    deadline_clock::time_point deadline, const peer_watch& watch) = 0;
};

class receiver_session {
 public:
  virtual ~receiver_session() = default;
  // watch notices a dead sender while the receive waits on it.
  virtual void receive(connection& control, tensor_memory& destination, stage_times& stages,
                       deadline_clock::time_point deadline, const peer_watch& watch) = 0;
};

// Untimed preparation: for the zero-copy variants the sender's tensor must live in memory the
// variant can share, so the session copies source there now.
std::unique_ptr<sender_session> make_sender_session(transfer_variant variant,
                                                    const tensor_memory& source);
// Takes the descriptors that follow an open_session command.
std::unique_ptr<receiver_session> open_receiver_session(const command_record& command,
                                                        connection& control,
                                                        deadline_clock::time_point deadline);

// The variants that move device memory without the article's serialisation.
std::unique_ptr<sender_session> make_device_direct_sender(transfer_variant variant,
                                                          const tensor_memory& source);
std::unique_ptr<receiver_session> open_device_direct_receiver(const command_record& command,
                                                              connection& control,
                                                              deadline_clock::time_point deadline);

}  // namespace handoff::patterns

#pragma once
// One variant's channel between the sender (process A) and the receiver (process B). A session is
// made untimed, opened (timed, for a cold transfer: channel set-up and any handle opening), used
// for any number of transfers, and closed untimed.

#include <memory>

#include "handoff/patterns/channels/connection.hpp"
#include "handoff/patterns/channels/peer_watch.hpp"
#include "handoff/patterns/process_errors.hpp"
#include "handoff/patterns/stage_times.hpp"
#include "handoff/patterns/tensor_transfer/tensor_memory.hpp"
#include "handoff/patterns/tensor_transfer/transfer_protocol.hpp"

namespace handoff::patterns {

// The two sides disagree about what is on the channel: a chunk or a record that cannot belong to
// the tensor being moved.
class transfer_protocol_error : public process_error {
 public:
  using process_error::process_error;
};

class sender_session {
 public:
  virtual ~sender_session() = default;
  // Creates the channel, sends announce (an open_session naming this variant) with the count of
  // descriptors the receiver must take, then the descriptors.
  virtual void open(connection& control, command_record announce,
                    deadline_clock::time_point deadline) = 0;
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

}  // namespace handoff::patterns

#pragma once
// One variant's channel between the sender (process A) and the receiver (process B). A session is
// made untimed, opened (timed, for a cold transfer: channel set-up and any handle opening), used
// for any number of transfers, and closed untimed.

#include <memory>

#include "handoff/patterns/stage_times.hpp"
#include "handoff/patterns/tensor_transfer/tensor_memory.hpp"
#include "handoff/patterns/tensor_transfer/transfer_protocol.hpp"
#include "handoff/transport/channels/connection.hpp"
#include "handoff/transport/channels/peer_watch.hpp"
#include "handoff/transport/process_errors.hpp"

namespace handoff::patterns {

// The two sides disagree about what is on the channel: a chunk or a record that cannot belong to
// the tensor being moved.
class transfer_protocol_error : public transport::process_error {
 public:
  using transport::process_error::process_error;
};

class sender_session {
 public:
  virtual ~sender_session() = default;
  // Creates the channel, sends announce (an open_session naming this variant) with the count of
  // descriptors the receiver must take, then the descriptors.
  virtual void open(transport::connection& control, command_record announce,
                    transport::deadline_clock::time_point deadline) = 0;
  // Sends source after a receive command; the receiver's reply follows on control.
  // watch notices a dead receiver while the send waits on it.
  virtual void send(transport::connection& control, const tensor_memory& source,
                    stage_times& stages, transport::deadline_clock::time_point deadline,
                    const transport::peer_watch& watch) = 0;
  // Whether open() and send() write only records and descriptors on control: then the commands
  // and they go out in one write (connection::hold_sends). A session that streams on a channel of
  // its own must not, as its receiver reads that channel only once the command has come.
  virtual bool sends_on_control_only() const { return false; }
};

class receiver_session {
 public:
  virtual ~receiver_session() = default;
  // watch notices a dead sender while the receive waits on it.
  virtual void receive(transport::connection& control, tensor_memory& destination,
                       stage_times& stages, transport::deadline_clock::time_point deadline,
                       const transport::peer_watch& watch) = 0;
};

}  // namespace handoff::patterns

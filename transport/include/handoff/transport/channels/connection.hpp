#pragma once
// One end of a duplex, message-oriented pipe between two processes, like Python's
// multiprocessing.Pipe(): a Unix stream socketpair carrying length-prefixed messages. It can also
// pass a file descriptor (SCM_RIGHTS), which is how a cuMem allocation travels between processes.
// Every call has a deadline; a peer that has gone away is channel_closed, never a hang.

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/process_errors.hpp"

namespace handoff::transport {

// A message longer than the receiver's cap.
class message_too_large : public process_error {
 public:
  using process_error::process_error;
};

class connection {
 public:
  // Adopts a connected stream socket; peer names the other end in every error message.
  connection(unique_fd socket, std::string peer);

  // Both ends, connected to each other, close-on-exec: hand one to a child via inherited_fds.
  static std::pair<connection, connection> make_pair(std::string first_peer,
                                                     std::string second_peer);

  // One message made of several buffers back to back (a header and a payload, say), no copy.
  void send_parts(std::initializer_list<std::span<const std::byte>> parts,
                  deadline_clock::time_point deadline);
  void send(std::span<const std::byte> message, deadline_clock::time_point deadline) {
    send_parts({message}, deadline);
  }
  // One message of `length` bytes whose pieces are made as it goes, for a sender that works on
  // each piece just before it is sent (copies it from a device, hashes it while it is in cache):
  // next() returns the next piece, and is called again only once that piece is sent. Pieces that
  // do not add up to length are a process_error. A throw after the first piece leaves the message
  // cut short, so the peer's receive ends in an error; nothing realigns the stream.
  using piece_source = std::function<std::span<const std::byte>()>;
  void send_streamed(std::uint64_t length, const piece_source& next,
                     deadline_clock::time_point deadline);

  // Receives a whole message into a new buffer; a message over max_bytes is message_too_large.
  std::vector<std::byte> receive(deadline_clock::time_point deadline, std::uint64_t max_bytes);

  // Streaming receive of one message: its length first, then the body in pieces of any size that
  // add up to the length, so a large payload can land straight in its destination.
  std::uint64_t receive_length(deadline_clock::time_point deadline, std::uint64_t max_bytes);
  void receive_body(std::span<std::byte> piece, deadline_clock::time_point deadline);

  // Fixed-size messages for control records.
  template <class Record>
  void send_record(const Record& record, deadline_clock::time_point deadline) {
    static_assert(std::is_trivially_copyable_v<Record>);
    send(std::as_bytes(std::span(&record, 1)), deadline);
  }
  template <class Record>
  Record receive_record(deadline_clock::time_point deadline) {
    static_assert(std::is_trivially_copyable_v<Record>);
    Record record;
    receive_whole_record(std::as_writable_bytes(std::span(&record, 1)), deadline);
    return record;
  }

  // Messages sent from hold_sends() until send_held() (or until this end sends anything that is not
  // a short message, or receives) go out in one write, so that the reader wakes and reads once for
  // them all: for a request made of records, one after another, on the hand-off's critical path.
  // The caller must not hold sends while it waits on another channel for this one's reader.
  void hold_sends();
  void send_held(deadline_clock::time_point deadline);

  // A descriptor, duplicated into the receiving process (SCM_RIGHTS), as a message of its own.
  void send_fd(int fd, deadline_clock::time_point deadline);
  unique_fd receive_fd(deadline_clock::time_point deadline);

  // Whether a message (or end of file) is waiting, within the timeout.
  bool poll(std::chrono::milliseconds timeout) const;

  int native_handle() const noexcept { return socket_.get(); }
  const std::string& peer() const noexcept { return peer_; }

 private:
  // Sends what is held, and requires the last message to have been received whole.
  void begin_receiving(deadline_clock::time_point deadline);
  [[noreturn]] void throw_too_large(std::uint64_t length, std::uint64_t cap) const;
  [[noreturn]] void throw_wrong_record_size(std::uint64_t got, std::size_t expected) const;
  void receive_whole_record(std::span<std::byte> record, deadline_clock::time_point deadline);
  void send_now(std::span<const std::byte> message, deadline_clock::time_point deadline);
  // Writes what is held, holding or not.
  void write_held(deadline_clock::time_point deadline);

  unique_fd socket_;
  std::string peer_;
  std::uint64_t body_left_ = 0;  // bytes of the current incoming message not yet received
  bool holding_sends_ = false;
  std::vector<std::byte> held_;  // whole messages, each with its length, not yet sent
};

}  // namespace handoff::transport

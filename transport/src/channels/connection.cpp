#include "handoff/transport/channels/connection.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace handoff::transport {
namespace {

// The most a short message (a record) and its length take, and what one write of held messages
// carries.
constexpr std::size_t one_send_bytes = 4096;

template <class Value>
std::span<std::byte> bytes_of(Value& value) {
  return std::as_writable_bytes(std::span(&value, 1));
}

// One byte with room for one descriptor beside it (SCM_RIGHTS).
struct descriptor_message {
  std::byte carrier{0x46};
  iovec payload{&carrier, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr message{};

  descriptor_message() {
    message.msg_iov = &payload;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof(control);
  }
  descriptor_message(const descriptor_message&) = delete;
  descriptor_message& operator=(const descriptor_message&) = delete;
};

// Every descriptor that arrived beside the carrier byte, now owned here: whatever is not handed to
// the caller is closed, so a peer that sends more than one cannot leak them into this process.
std::vector<unique_fd> received_descriptors(msghdr& message) {
  std::vector<unique_fd> received;
  for (cmsghdr* header = CMSG_FIRSTHDR(&message); header != nullptr;
       header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS ||
        header->cmsg_len < CMSG_LEN(0)) {
      continue;
    }
    const std::size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t index = 0; index < count; ++index) {
      int fd = -1;
      std::memcpy(&fd, CMSG_DATA(header) + index * sizeof(int), sizeof(int));
      received.emplace_back(fd);
    }
  }
  return received;
}

}  // namespace

connection::connection(unique_fd socket, std::string peer)
    : socket_(std::move(socket)), peer_(std::move(peer)) {}

std::pair<connection, connection> connection::make_pair(std::string first_peer,
                                                        std::string second_peer) {
  auto ends = make_cloexec_socketpair();
  return {connection(std::move(ends.read_end), std::move(first_peer)),
          connection(std::move(ends.write_end), std::move(second_peer))};
}

void connection::send_parts(std::initializer_list<std::span<const std::byte>> parts,
                            deadline_clock::time_point deadline) {
  std::uint64_t length = 0;
  for (const auto part : parts)
    length += part.size();
  // A short message (every record) goes in one send, so that the reader wakes once for it, not
  // once for its length and again for its body.
  if (length <= one_send_bytes - sizeof(length)) {
    std::array<std::byte, one_send_bytes> message;
    std::memcpy(message.data(), &length, sizeof(length));
    std::size_t filled = sizeof(length);
    for (const auto part : parts) {
      if (!part.empty()) std::memcpy(message.data() + filled, part.data(), part.size());
      filled += part.size();
    }
    send_now(std::span(message).first(filled), deadline);
    return;
  }
  send_held(deadline);
  send_all(socket_.get(), bytes_of(length), deadline, peer_);
  for (const auto part : parts)
    send_all(socket_.get(), part, deadline, peer_);
}

void connection::send_now(std::span<const std::byte> message, deadline_clock::time_point deadline) {
  if (!holding_sends_) {
    send_all(socket_.get(), message, deadline, peer_);
    return;
  }
  if (held_.size() + message.size() > one_send_bytes) write_held(deadline);  // still holding
  held_.insert(held_.end(), message.begin(), message.end());
}

void connection::hold_sends() {
  holding_sends_ = true;
}

void connection::send_held(deadline_clock::time_point deadline) {
  holding_sends_ = false;
  write_held(deadline);
}

void connection::write_held(deadline_clock::time_point deadline) {
  if (held_.empty()) return;
  // Cleared however the send ends, so that nothing held is ever sent twice; the buffer keeps its
  // room for the next hold.
  struct clear_on_exit {
    std::vector<std::byte>& held;
    ~clear_on_exit() { held.clear(); }
  } clear{held_};
  send_all(socket_.get(), held_, deadline, peer_);
}

void connection::send_streamed(std::uint64_t length, const piece_source& next,
                               deadline_clock::time_point deadline) {
  send_held(deadline);
  send_all(socket_.get(), bytes_of(length), deadline, peer_);
  for (std::uint64_t sent = 0; sent < length;) {
    const auto piece = next();
    if (piece.empty() || piece.size() > length - sent) {
      throw process_error("sending to " + peer_ + ": a piece of " + std::to_string(piece.size()) +
                          " bytes after " + std::to_string(sent) + " of a " +
                          std::to_string(length) + "-byte message");
    }
    send_all(socket_.get(), piece, deadline, peer_);
    sent += piece.size();
  }
}

std::vector<std::byte> connection::receive(deadline_clock::time_point deadline,
                                           std::uint64_t max_bytes) {
  std::vector<std::byte> message(receive_length(deadline, max_bytes));
  receive_body(message, deadline);
  return message;
}

std::uint64_t connection::receive_length(deadline_clock::time_point deadline,
                                         std::uint64_t max_bytes) {
  begin_receiving(deadline);
  std::uint64_t length = 0;
  receive_exact(socket_.get(), bytes_of(length), deadline, peer_);
  if (length > max_bytes) throw_too_large(length, max_bytes);
  body_left_ = length;
  return length;
}

void connection::receive_body(std::span<std::byte> piece, deadline_clock::time_point deadline) {
  if (piece.size() > body_left_) {
    throw process_error("receiving from " + peer_ + ": asked for " + std::to_string(piece.size()) +
                        " bytes but the message has " + std::to_string(body_left_) + " left");
  }
  receive_exact(socket_.get(), piece, deadline, peer_);
  body_left_ -= piece.size();
}

void connection::send_fd(int fd, deadline_clock::time_point deadline) {
  send_held(deadline);
  std::uint64_t length = 1;
  send_all(socket_.get(), bytes_of(length), deadline, peer_);
  // The descriptor rides on a byte of its own, sent apart from the length, so that the receiver's
  // plain read of the length can never swallow it.
  descriptor_message carrier;
  cmsghdr* header = CMSG_FIRSTHDR(&carrier.message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(header), &fd, sizeof(int));
  while (true) {
    await_ready(socket_.get(), POLLOUT, deadline, peer_, "sending a descriptor to");
    const ssize_t sent = ::sendmsg(socket_.get(), &carrier.message, MSG_NOSIGNAL);
    if (sent == 1) return;
    if (sent < 0 && errno == EPIPE) {
      throw channel_closed("sending a descriptor to " + peer_ + ": the reader has gone (EPIPE)");
    }
    if (sent < 0 && errno != EINTR && errno != EAGAIN) {
      throw process_error("sending a descriptor to " + peer_ + ": " + std::strerror(errno));
    }
  }
}

unique_fd connection::receive_fd(deadline_clock::time_point deadline) {
  const std::uint64_t length = receive_length(deadline, 1);
  if (length != 1) {
    throw process_error("expected a descriptor from " + peer_ + ", got a message of " +
                        std::to_string(length) + " bytes");
  }
  descriptor_message carrier;
  while (true) {
    await_ready(socket_.get(), POLLIN, deadline, peer_, "receiving a descriptor from");
    const ssize_t got = ::recvmsg(socket_.get(), &carrier.message, MSG_CMSG_CLOEXEC);
    if (got == 1) break;
    if (got == 0) throw channel_closed("receiving a descriptor from " + peer_ + ": end of file");
    if (errno != EINTR && errno != EAGAIN) {
      throw process_error("receiving a descriptor from " + peer_ + ": " + std::strerror(errno));
    }
  }
  body_left_ = 0;
  auto descriptors = received_descriptors(carrier.message);
  if (descriptors.empty()) {
    throw process_error("expected a descriptor from " + peer_ + ", got a message without one");
  }
  if (descriptors.size() != 1 || (carrier.message.msg_flags & MSG_CTRUNC) != 0) {
    throw process_error("expected one descriptor from " + peer_ + ", got " +
                        std::to_string(descriptors.size()) +
                        ((carrier.message.msg_flags & MSG_CTRUNC) != 0 ? " and more" : ""));
  }
  return std::move(descriptors.front());
}

bool connection::poll(std::chrono::milliseconds timeout) const {
  pollfd request{socket_.get(), POLLIN, 0};
  const int ready = ::poll(&request, 1, static_cast<int>(timeout.count()));
  return ready > 0;
}

void connection::receive_whole_record(std::span<std::byte> record,
                                      deadline_clock::time_point deadline) {
  std::uint64_t length = 0;
  if (record.size() > one_send_bytes - sizeof(length)) {
    length = receive_length(deadline, record.size());
    if (length != record.size()) throw_wrong_record_size(length, record.size());
    receive_body(record, deadline);
    return;
  }
  begin_receiving(deadline);
  // A record and its length were sent in one write, so one read usually takes both: a read fewer
  // on each side of a hand-off's critical path. The read asks for no more than a message of the
  // record's size, so it takes nothing of the next message unless this one is the wrong size,
  // which is an error whatever follows.
  std::array<std::byte, one_send_bytes> message;
  const std::size_t got =
      receive_at_least(socket_.get(), std::span(message).first(sizeof(length) + record.size()),
                       sizeof(length), deadline, peer_);
  std::memcpy(&length, message.data(), sizeof(length));
  if (length > record.size()) throw_too_large(length, record.size());
  if (length != record.size()) throw_wrong_record_size(length, record.size());
  const std::size_t body_got = got - sizeof(length);
  std::memcpy(record.data(), message.data() + sizeof(length), body_got);
  receive_exact(socket_.get(), record.subspan(body_got), deadline, peer_);
}

void connection::begin_receiving(deadline_clock::time_point deadline) {
  send_held(deadline);
  if (body_left_ != 0) {
    throw process_error("receiving from " + peer_ + ": the previous message still has " +
                        std::to_string(body_left_) + " bytes unread");
  }
}

void connection::throw_too_large(std::uint64_t length, std::uint64_t cap) const {
  throw message_too_large("message from " + peer_ + " claims " + std::to_string(length) +
                          " bytes; the cap is " + std::to_string(cap));
}

void connection::throw_wrong_record_size(std::uint64_t got, std::size_t expected) const {
  throw process_error("expected a " + std::to_string(expected) + "-byte record from " + peer_ +
                      ", got " + std::to_string(got) + " bytes");
}

}  // namespace handoff::transport

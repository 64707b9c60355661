#include "handoff/transport/fd_io.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <string_view>

#include "handoff/transport/process_errors.hpp"
#include "handoff/transport/stop_request.hpp"

namespace handoff::transport {

bool ready_within_spin(int fd, short events, deadline_clock::time_point deadline) {
  const auto spin_end = std::min(deadline, deadline_clock::now() + spin_length());
  do {
    pollfd request{fd, events, 0};
    if (::poll(&request, 1, 0) > 0) return true;
    offer_the_core();
  } while (deadline_clock::now() < spin_end);
  return false;
}

namespace {

void sleep_until_ready(int fd, short events, deadline_clock::time_point deadline,
                       std::string_view peer, const char* what) {
  while (true) {
    throw_if_stop_requested(std::string(what) + " " + std::string(peer));
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - deadline_clock::now());
    if (left.count() <= 0) {
      throw deadline_exceeded(std::string(what) + " " + std::string(peer) + ": deadline exceeded");
    }
    pollfd request{fd, events, 0};
    const int ready =
        ::poll(&request, 1, static_cast<int>(std::min(left, stop_check_interval).count()));
    if (ready > 0) return;
    if (ready < 0 && errno != EINTR) {
      throw process_error(std::string(what) + " " + std::string(peer) +
                          ": poll: " + std::strerror(errno));
    }
  }
}

}  // namespace

// Only a reader spins: a writer's wait is for buffer space, which comes slowly.
void await_ready(int fd, short events, deadline_clock::time_point deadline, std::string_view peer,
                 const char* what) {
  if ((events & POLLIN) != 0 && ready_within_spin(fd, events, deadline)) return;
  sleep_until_ready(fd, events, deadline, peer, what);
}

namespace {

// A blocking write could outlast the deadline, so the writes are non-blocking; the descriptor is
// the caller's, and gets its own flags back however the writing ends.
class nonblocking_while_writing {
 public:
  nonblocking_while_writing(int fd, std::string_view peer) : fd_(fd) {
    flags_ = ::fcntl(fd, F_GETFL);
    if (flags_ < 0 || (!(flags_ & O_NONBLOCK) && ::fcntl(fd, F_SETFL, flags_ | O_NONBLOCK) != 0)) {
      throw process_error("writing to " + std::string(peer) + ": fcntl: " + std::strerror(errno));
    }
  }
  ~nonblocking_while_writing() {
    if (!(flags_ & O_NONBLOCK)) ::fcntl(fd_, F_SETFL, flags_);
  }
  nonblocking_while_writing(const nonblocking_while_writing&) = delete;
  nonblocking_while_writing& operator=(const nonblocking_while_writing&) = delete;

 private:
  int fd_;
  int flags_ = 0;
};

template <class Writer>
void write_loop(int fd, std::span<const std::byte> bytes, deadline_clock::time_point deadline,
                std::string_view peer, Writer&& write_some) {
  std::size_t done = 0;
  // The write is tried first, as there is usually room: a poll() before every write was one
  // system call more per message.
  bool full = false;
  while (done < bytes.size()) {
    if (full || deadline_clock::now() >= deadline) {
      await_ready(fd, POLLOUT, deadline, peer, "writing to");
    }
    const ssize_t wrote = write_some(bytes.data() + done, bytes.size() - done);
    full = wrote == 0 || (wrote < 0 && errno == EAGAIN);
    if (wrote > 0) {
      done += static_cast<std::size_t>(wrote);
    } else if (wrote < 0 && (errno == EPIPE || errno == ECONNRESET)) {
      throw channel_closed("writing to " + std::string(peer) + ": the reader has gone (" +
                           std::strerror(errno) + ")");
    } else if (wrote < 0 && errno != EINTR && errno != EAGAIN) {
      throw process_error("writing to " + std::string(peer) + ": " + std::strerror(errno));
    }
  }
}

}  // namespace

void write_all(int fd, std::span<const std::byte> bytes, deadline_clock::time_point deadline,
               std::string_view peer) {
  const nonblocking_while_writing nonblocking(fd, peer);
  write_loop(fd, bytes, deadline, peer,
             [fd](const std::byte* data, std::size_t size) { return ::write(fd, data, size); });
}

void splice_all(int pipe, std::span<const std::byte> bytes, deadline_clock::time_point deadline,
                std::string_view peer) {
  write_loop(pipe, bytes, deadline, peer, [pipe](const std::byte* data, std::size_t size) {
    iovec piece{const_cast<std::byte*>(data), size};
    return ::vmsplice(pipe, &piece, 1, SPLICE_F_NONBLOCK);
  });
}

void send_all(int socket, std::span<const std::byte> bytes, deadline_clock::time_point deadline,
              std::string_view peer) {
  write_loop(socket, bytes, deadline, peer, [socket](const std::byte* data, std::size_t size) {
    // MSG_DONTWAIT makes this one send non-blocking without two fcntl calls around it.
    return ::send(socket, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
  });
}

namespace {

[[noreturn]] void throw_read_failure(std::string_view peer, std::size_t done, std::size_t size) {
  if (errno == ECONNRESET) {
    throw channel_closed("reading from " + std::string(peer) + ": connection reset after " +
                         std::to_string(done) + " of " + std::to_string(size) + " bytes");
  }
  throw process_error("reading from " + std::string(peer) + ": " + std::strerror(errno));
}

[[noreturn]] void throw_end_of_file(std::string_view peer, std::size_t done, std::size_t size) {
  throw channel_closed("reading from " + std::string(peer) + ": end of file after " +
                       std::to_string(done) + " of " + std::to_string(size) + " bytes");
}

}  // namespace

void read_exact(int fd, std::span<std::byte> bytes, deadline_clock::time_point deadline,
                std::string_view peer) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    await_ready(fd, POLLIN, deadline, peer, "reading from");
    const ssize_t got = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (got > 0) {
      done += static_cast<std::size_t>(got);
    } else if (got == 0) {
      throw_end_of_file(peer, done, bytes.size());
    } else if (errno != EINTR && errno != EAGAIN) {
      throw_read_failure(peer, done, bytes.size());
    }
  }
}

namespace {

bool nothing_yet() {
  return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
}

// One read of whatever has arrived, up to bytes.size(), once something has: its count, 0 at end of
// file, or -1 with errno set for a failure.
ssize_t receive_available(int socket, std::span<std::byte> bytes,
                          deadline_clock::time_point deadline, std::string_view peer) {
  const auto receive_now = [&] { return ::recv(socket, bytes.data(), bytes.size(), MSG_DONTWAIT); };
  // The socket is read before it is waited on, as a record's bytes are usually there already.
  ssize_t got = receive_now();
  if (got < 0 && nothing_yet()) {
    // The spin re-reads rather than polls: a poll() that sees the bytes arrive costs a system
    // call more, at the moment the hand-off's critical path wakes up.
    const auto spin_end = std::min(deadline, deadline_clock::now() + spin_length());
    do {
      got = receive_now();
      if (got >= 0 || !nothing_yet()) break;
      offer_the_core();
    } while (deadline_clock::now() < spin_end);
  }
  while (got < 0 && nothing_yet()) {
    sleep_until_ready(socket, POLLIN, deadline, peer, "reading from");
    got = receive_now();
  }
  return got;
}

}  // namespace

std::size_t receive_at_least(int socket, std::span<std::byte> bytes, std::size_t at_least,
                             deadline_clock::time_point deadline, std::string_view peer) {
  std::size_t done = 0;
  while (done < at_least) {
    const ssize_t got = receive_available(socket, bytes.subspan(done), deadline, peer);
    if (got == 0) throw_end_of_file(peer, done, at_least);
    if (got < 0) throw_read_failure(peer, done, at_least);
    done += static_cast<std::size_t>(got);
  }
  return done;
}

void receive_exact(int socket, std::span<std::byte> bytes, deadline_clock::time_point deadline,
                   std::string_view peer) {
  receive_at_least(socket, bytes, bytes.size(), deadline, peer);
}

pipe_ends make_cloexec_socketpair() {
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    throw process_error(std::string("socketpair: ") + std::strerror(errno));
  }
  // Larger socket buffers mean fewer wake-ups per megabyte; the kernel caps the request quietly.
  constexpr int socket_buffer_bytes = 4 << 20;
  for (const int end : ends) {
    ::setsockopt(end, SOL_SOCKET, SO_SNDBUF, &socket_buffer_bytes, sizeof(socket_buffer_bytes));
    ::setsockopt(end, SOL_SOCKET, SO_RCVBUF, &socket_buffer_bytes, sizeof(socket_buffer_bytes));
  }
  return {unique_fd(ends[0]), unique_fd(ends[1])};
}

pipe_ends make_cloexec_pipe() {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    throw process_error(std::string("pipe2: ") + std::strerror(errno));
  }
  return {unique_fd(ends[0]), unique_fd(ends[1])};
}

void unique_fd::reset() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace handoff::transport

#pragma once
// Whole-buffer reads and writes on a file descriptor, each bounded by a deadline. EOF and a broken
// pipe become channel_closed; a missed deadline becomes deadline_exceeded. Nothing blocks forever.

#include <chrono>
#include <cstddef>
#include <span>
#include <string_view>

#include "handoff/transport/spin_settings.hpp"

namespace handoff::transport {

using deadline_clock = std::chrono::steady_clock;

// Re-tests fd for events without sleeping, for spin_length() or until the deadline; true
// once it is ready. A reader calls it before it sleeps in poll().
bool ready_within_spin(int fd, short events, deadline_clock::time_point deadline);

// Waits until fd is ready for events (POLLIN, POLLOUT); deadline_exceeded at the deadline. what
// and peer name the wait in the error ("reading from", "worker-0").
void await_ready(int fd, short events, deadline_clock::time_point deadline, std::string_view peer,
                 const char* what);

// A blocking write of a large buffer can outlast any deadline once the reader stalls, so write_all
// switches the descriptor to non-blocking mode before its first write.
void write_all(int fd, std::span<const std::byte> bytes, deadline_clock::time_point deadline,
               std::string_view peer);
// write_all for a pipe by vmsplice(2): the pipe takes references to the bytes' pages rather than
// copies, so the bytes must stay unchanged until the reader has read them.
void splice_all(int pipe, std::span<const std::byte> bytes, deadline_clock::time_point deadline,
                std::string_view peer);
// write_all for a socket, without SIGPIPE: a vanished reader is channel_closed, not a dead process.
void send_all(int socket, std::span<const std::byte> bytes, deadline_clock::time_point deadline,
              std::string_view peer);
void read_exact(int fd, std::span<std::byte> bytes, deadline_clock::time_point deadline,
                std::string_view peer);
// read_exact for a socket: it reads before it waits, since a message's bytes are usually there,
// and while it spins it re-reads rather than polls.
void receive_exact(int socket, std::span<std::byte> bytes, deadline_clock::time_point deadline,
                   std::string_view peer);
// Reads at least at_least bytes into bytes, and no more than bytes.size(); returns how many came.
// For a reader that knows a message's smallest and largest sizes: one read often takes it whole.
std::size_t receive_at_least(int socket, std::span<std::byte> bytes, std::size_t at_least,
                             deadline_clock::time_point deadline, std::string_view peer);

// Owns a file descriptor and closes it once, whatever path leaves the scope.
class unique_fd {
 public:
  unique_fd() = default;
  explicit unique_fd(int fd) noexcept : fd_(fd) {}
  unique_fd(unique_fd&& other) noexcept : fd_(other.release()) {}
  unique_fd& operator=(unique_fd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = other.release();
    }
    return *this;
  }
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;
  ~unique_fd() { reset(); }

  int get() const noexcept { return fd_; }
  int release() noexcept {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset() noexcept;

 private:
  int fd_ = -1;
};

// A pipe whose two ends close on exec, so a spawned child inherits only what it is handed.
struct pipe_ends {
  unique_fd read_end;
  unique_fd write_end;
};
pipe_ends make_cloexec_pipe();
// The same shape from a Unix stream socketpair with enlarged buffers: what Python's duplex Pipe()
// is, and what can carry descriptors.
pipe_ends make_cloexec_socketpair();

}  // namespace handoff::transport

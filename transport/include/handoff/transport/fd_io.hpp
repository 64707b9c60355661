#pragma once
// Whole-buffer reads and writes on a file descriptor, each bounded by a deadline. EOF and a broken
// pipe become channel_closed; a missed deadline becomes deadline_exceeded. Nothing blocks forever.

#include <chrono>
#include <cstddef>
#include <span>
#include <string_view>

namespace handoff::transport {

using deadline_clock = std::chrono::steady_clock;

// A peer usually answers within microseconds, and sleeping until it does (in poll() or on a
// futex) costs a sleep and a wake-up on top: about 7 us of a 22 us hand-off round trip on the
// lent GPU machines (tools/probes/ipc_handoff_probe.cu, blocking against spinning reads). So a
// reader first re-tests without sleeping for this long.
inline constexpr auto spin_before_sleeping = std::chrono::microseconds(50);

// Each turn of a spin offers the core to another thread that waits for it. A process spawned by
// another starts on its parent's core and stays there until the scheduler balances them; a peer
// that spins there for its answer holds the core the answer needs for the whole spin, and each
// hand-off then takes two spins (docs/design/measured-along-the-way.md).
void offer_the_core() noexcept;

// How a spin's turn offers the core, from HANDOFF_SPIN: `yield` (unset or empty too) hands it to
// a thread that waits for it (sched_yield); `pause` only eases off it for a sibling hardware
// thread, as every spin did before yielding; `peer` yields only while a peer process last ran on
// this core (peer_cores.hpp) and pauses otherwise. `pause` and `peer` are switches for
// experiments: a yield can hand the core to a thread that computes, for that thread's time slice.
// Anything else is std::invalid_argument.
enum class spin_turn { yield, pause, peer };
spin_turn spin_turn_from_environment();
const char* name_of(spin_turn turn) noexcept;

// How long a reader spins before it sleeps, from HANDOFF_SPIN_US: whole microseconds from 0 to
// 1000000 (unset or empty: spin_before_sleeping). An experiment's switch: a longer spin keeps a
// waiting worker awake through a longer gap between messages, and holds its core for as long.
// Anything else is std::invalid_argument.
std::chrono::microseconds spin_length_from_environment();
// The length this process spins, read from HANDOFF_SPIN_US once (spin_before_sleeping where the
// value is bad: handoff_bench refuses it before any row, and a worker inherits the environment).
std::chrono::microseconds spin_length() noexcept;

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

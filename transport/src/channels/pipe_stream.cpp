#include "pipe_stream.hpp"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "handoff/transport/channels/peer_watch.hpp"
#include "handoff/transport/process_errors.hpp"
#include "handoff/transport/stop_request.hpp"

namespace handoff::transport::pipe_stream {
namespace {

// Runs on_stall whenever peer_watch_interval has passed since it last ran, even while bytes flow,
// so a peer check is never starved by a slow trickle.
class stall_clock {
 public:
  explicit stall_clock(const std::function<void()>& on_stall) : on_stall_(on_stall) {}
  void tick() {
    throw_if_stop_requested("waiting on a queue pipe");
    const auto now = deadline_clock::now();
    if (now < next_) return;
    if (on_stall_) on_stall_();
    next_ = deadline_clock::now() + peer_watch_interval;
  }
  // How long one poll may sleep before the next tick or the deadline.
  int poll_timeout_ms(deadline_clock::time_point deadline) const {
    const auto until = std::min(deadline, next_);
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - deadline_clock::now());
    return static_cast<int>(std::clamp<long long>(left.count(), 0, peer_watch_interval.count()));
  }

 private:
  const std::function<void()>& on_stall_;
  deadline_clock::time_point next_ = deadline_clock::now() + peer_watch_interval;
};

// Polls once; true when fd is ready (or has an error the next read or write will report).
bool poll_once(int fd, short events, int timeout_ms) {
  pollfd request{fd, events, 0};
  const int ready = ::poll(&request, 1, timeout_ms);
  if (ready < 0 && errno != EINTR) {
    throw process_error(std::string("poll on a queue pipe: ") + std::strerror(errno));
  }
  return ready > 0;
}

}  // namespace

bool wait_readable(int fd, deadline_clock::time_point deadline,
                   const std::function<void()>& on_stall) {
  if (ready_within_spin(fd, POLLIN, deadline)) return true;
  stall_clock stalls(on_stall);
  while (true) {
    if (poll_once(fd, POLLIN, stalls.poll_timeout_ms(deadline))) return true;
    if (deadline_clock::now() >= deadline) return false;
    stalls.tick();
  }
}

void write_pieces(int fd, std::vector<iovec> pieces, deadline_clock::time_point deadline,
                  const std::function<void()>& on_stall, std::size_t& written, pipe_write how) {
  stall_clock stalls(on_stall);
  written = 0;
  std::size_t first = 0;  // the first piece not yet fully written
  const auto skip_written_pieces = [&] {
    while (first < pieces.size() && pieces[first].iov_len == 0)
      ++first;
  };
  skip_written_pieces();
  // Every attempt comes before the deadline test, so a write that can finish at once always does.
  while (first < pieces.size()) {
    const auto count = static_cast<int>(std::min<std::size_t>(pieces.size() - first, IOV_MAX));
    const ssize_t wrote = how == pipe_write::splice
                              ? ::vmsplice(fd, pieces.data() + first,
                                           static_cast<unsigned long>(count), SPLICE_F_NONBLOCK)
                              : ::writev(fd, pieces.data() + first, count);
    if (wrote > 0) {
      written += static_cast<std::size_t>(wrote);
      for (auto left = static_cast<std::size_t>(wrote); left > 0;) {
        const std::size_t step = std::min(left, pieces[first].iov_len);
        pieces[first].iov_base = static_cast<std::byte*>(pieces[first].iov_base) + step;
        pieces[first].iov_len -= step;
        left -= step;
        skip_written_pieces();
      }
      if (first == pieces.size()) break;
    } else if (errno == EPIPE) {
      throw channel_closed("writing to a queue pipe: no reader is left (EPIPE)");
    } else if (errno != EAGAIN && errno != EINTR) {
      throw process_error(std::string("writing to a queue pipe: ") + std::strerror(errno));
    }
    if (deadline_clock::now() >= deadline) return;
    if (wrote <= 0) poll_once(fd, POLLOUT, stalls.poll_timeout_ms(deadline));
    stalls.tick();
  }
}

std::size_t read_into(int fd, std::span<std::byte> into, deadline_clock::time_point deadline,
                      const std::function<void()>& on_stall) {
  stall_clock stalls(on_stall);
  std::size_t done = 0;
  while (done < into.size()) {
    const ssize_t got = ::read(fd, into.data() + done, into.size() - done);
    if (got > 0) {
      done += static_cast<std::size_t>(got);
      if (done == into.size()) break;
    } else if (got == 0) {
      throw channel_closed("reading from a queue pipe: end of file after " + std::to_string(done) +
                           " of " + std::to_string(into.size()) + " bytes");
    } else if (errno != EAGAIN && errno != EINTR) {
      throw process_error(std::string("reading from a queue pipe: ") + std::strerror(errno));
    }
    if (deadline_clock::now() >= deadline) return done;
    // A drained pipe refills within microseconds while the writer streams, so the reader spins
    // before it sleeps, as the socketpair's reader does (fd_io.hpp).
    if (got <= 0 && !ready_within_spin(fd, POLLIN, deadline)) {
      poll_once(fd, POLLIN, stalls.poll_timeout_ms(deadline));
    }
    stalls.tick();
  }
  return done;
}

std::size_t unread_bytes(int fd) {
  int unread = 0;
  if (::ioctl(fd, FIONREAD, &unread) != 0) {
    throw process_error(std::string("FIONREAD on a queue pipe: ") + std::strerror(errno));
  }
  return static_cast<std::size_t>(std::max(unread, 0));
}

std::size_t capacity(int fd) {
  const int bytes = ::fcntl(fd, F_GETPIPE_SZ);
  if (bytes <= 0) {
    throw process_error(std::string("F_GETPIPE_SZ on a queue pipe: ") + std::strerror(errno));
  }
  return static_cast<std::size_t>(bytes);
}

}  // namespace handoff::transport::pipe_stream

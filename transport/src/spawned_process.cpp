#include "handoff/transport/spawned_process.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "handoff/transport/peer_cores.hpp"
#include "handoff/transport/process_errors.hpp"
#include "handoff/transport/process_state.hpp"
#include "handoff/transport/stop_request.hpp"

extern char** environ;

namespace handoff::transport {
namespace {

exit_status decode_wait_status(int raw) {
  if (WIFEXITED(raw)) return {true, WEXITSTATUS(raw)};
  return {false, WTERMSIG(raw)};
}

std::string errno_text(int error) {
  return std::strerror(error);
}

// Above every descriptor number involved: where the inherited descriptors wait on their way to 3,
// 4, ...
int first_parking_fd(const std::vector<int>& fds) {
  int parking = first_inherited_fd + static_cast<int>(fds.size());
  for (const int fd : fds)
    parking = std::max(parking, fd + 1);
  return parking;
}

// The child's dup2 to a number at or past RLIMIT_NOFILE fails with EBADF, which would name the
// wrong cause: the limit on open files is what stands in the way.
void check_descriptor_limit(const std::string& name, const std::vector<int>& fds) {
  if (fds.empty()) return;
  const long highest = first_parking_fd(fds) + static_cast<long>(fds.size()) - 1;
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
  if (static_cast<rlim_t>(highest) < limit.rlim_cur) return;
  throw spawn_failed("spawn " + name + ": too many open files: handing the worker its " +
                     std::to_string(fds.size()) + " descriptor(s) needs descriptor number " +
                     std::to_string(highest) + ", past this process's limit of " +
                     std::to_string(limit.rlim_cur) + " open files (ulimit -n)");
}

// Moves each inherited descriptor to 3, 4, ... in two steps, first above every number involved,
// so that no move overwrites a descriptor that a later move still needs.
int add_inherited_fds(posix_spawn_file_actions_t& actions, const std::vector<int>& fds) {
  if (fds.empty()) return 0;
  const int parking = first_parking_fd(fds);
  int error = 0;
  for (std::size_t index = 0; index < fds.size(); ++index) {
    error |= posix_spawn_file_actions_adddup2(&actions, fds[index], parking + int(index));
  }
  for (std::size_t index = 0; index < fds.size(); ++index) {
    error |= posix_spawn_file_actions_adddup2(&actions, parking + int(index),
                                              first_inherited_fd + int(index));
  }
  return error;
}

}  // namespace

std::string exit_status::describe() const {
  if (stalled_for) {
    return "stalled: it had not finished " + std::to_string(stalled_for->count()) +
           " ms after it was asked to (" +
           (stalled_state.empty() ? "state unknown" : stalled_state) + "), so it was killed";
  }
  if (lost) return "could not be reaped (alive 5 s after SIGKILL, or waitpid failed)";
  if (exited) return "exited with code " + std::to_string(code);
  const char* signal_name = ::strsignal(code);
  return "killed by signal " + std::to_string(code) + " (" + (signal_name ? signal_name : "?") +
         ")";
}

spawned_process spawned_process::start(std::string name, const std::vector<std::string>& argv,
                                       child_stdio stdio) {
  if (argv.empty()) throw spawn_failed("spawn " + name + ": empty command line");
  check_descriptor_limit(name, stdio.inherited_fds);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  int setup_error = 0;
  if (stdio.stdin_fd >= 0)
    setup_error |= posix_spawn_file_actions_adddup2(&actions, stdio.stdin_fd, 0);
  if (stdio.stdout_fd >= 0) {
    setup_error |= posix_spawn_file_actions_adddup2(&actions, stdio.stdout_fd, 1);
  }
  setup_error |= add_inherited_fds(actions, stdio.inherited_fds);
  // Descriptors that are not close-on-exec (a library's ofstream, say) must not reach the worker,
  // or it could keep a results file or the other end of someone else's pipe open.
  const int first_closed = first_inherited_fd + static_cast<int>(stdio.inherited_fds.size());
  setup_error |= posix_spawn_file_actions_addclosefrom_np(&actions, first_closed);

  std::vector<char*> arguments;
  arguments.reserve(argv.size() + 1);
  for (const auto& argument : argv)
    arguments.push_back(const_cast<char*>(argument.c_str()));
  arguments.push_back(nullptr);

  pid_t pid = -1;
  const int error = setup_error != 0 ? setup_error
                                     : posix_spawn(&pid, arguments[0], &actions, nullptr,
                                                   arguments.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    throw spawn_failed("spawn " + name + " (" + argv[0] + "): " + errno_text(error));
  }
  spawned_process child(std::move(name), pid);
  count_child_as_peer(pid);
  return child;
}

spawned_process::spawned_process(spawned_process&& other) noexcept
    : name_(std::move(other.name_)), pid_(other.pid_), status_(other.status_) {
  other.pid_ = -1;
}

spawned_process& spawned_process::operator=(spawned_process&& other) noexcept {
  if (this != &other) {
    kill_and_reap();
    name_ = std::move(other.name_);
    pid_ = other.pid_;
    status_ = other.status_;
    other.pid_ = -1;
  }
  return *this;
}

spawned_process::~spawned_process() {
  kill_and_reap();
}

std::optional<exit_status> spawned_process::poll() {
  if (status_ || pid_ < 0) return status_;
  int raw = 0;
  const pid_t reaped = ::waitpid(pid_, &raw, WNOHANG);
  if (reaped == pid_) record_exit(decode_wait_status(raw));
  if (reaped < 0 && errno != EINTR) {
    throw process_error("waitpid for worker " + name_ + ": " + errno_text(errno));
  }
  return status_;
}

exit_status spawned_process::wait_for(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::microseconds(50);
  while (true) {
    if (auto status = poll()) return *status;
    if (stop_is_requested()) {
      kill_and_reap();
      throw stop_requested("waiting for worker " + name_ + " (pid " + std::to_string(pid_) +
                           ") to finish: the run was asked to stop; it was killed");
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      const std::string state = process_state_text(pid_);
      kill_and_reap();
      if (status_ && !status_->lost) {
        status_->stalled_for = timeout;
        status_->stalled_state = state;
      }
      throw deadline_exceeded("worker " + name_ + " (pid " + std::to_string(pid_) +
                              ") did not finish within " + std::to_string(timeout.count()) +
                              " ms (" + state + "); it was killed");
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(5000));
  }
}

void spawned_process::kill_and_reap() noexcept {
  if (pid_ < 0 || status_) return;
  ::kill(pid_, SIGKILL);
  // SIGKILL ends a process once it leaves the kernel; one stuck inside a driver call may take
  // long, or forever, and the coordinator must not hang with it: after the deadline it is
  // reported as lost (and left to init to reap when it does end).
  constexpr auto reap_deadline = std::chrono::seconds(5);
  const auto deadline = std::chrono::steady_clock::now() + reap_deadline;
  auto pause = std::chrono::microseconds(50);
  while (true) {
    int raw = 0;
    const pid_t reaped = ::waitpid(pid_, &raw, WNOHANG);
    if (reaped == pid_) {
      record_exit(decode_wait_status(raw));
      return;
    }
    if ((reaped < 0 && errno != EINTR) || std::chrono::steady_clock::now() >= deadline) {
      record_exit(exit_status{.lost = true});
      return;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(5000));
  }
}

void spawned_process::record_exit(exit_status status) noexcept {
  status_ = std::move(status);
  // Its pid may now name an unrelated process.
  forget_child_peer(pid_);
}

std::string self_executable_path() {
  // Not the path /proc/self/exe points to: a rebuild during a run replaces that file, and the
  // link then names "<path> (deleted)". Executed in the child as it is, /proc/self/exe opens the
  // running program's own file, replaced or not.
  return "/proc/self/exe";
}

}  // namespace handoff::transport

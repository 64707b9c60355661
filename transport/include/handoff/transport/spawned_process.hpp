#pragma once
// A worker started as a new program (spawn semantics): the parent may already hold a CUDA context,
// and CUDA state must never be inherited through fork. Waiting always has a deadline, and a process
// still running when its owner goes away is killed and reaped, so none is left behind.

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace handoff::transport {

struct exit_status {
  bool exited = false;  // true: ended through exit(); false: ended by a signal
  int code = 0;         // exit code, or the signal number
  bool lost = false;    // waitpid failed: how it ended is unknown
  // Set when the owner killed it for not finishing in time: how long it was waited for, and what
  // /proc said it was doing then ("sleeping", "stopped by a signal"), so that a stall is not
  // reported as if something else had killed it.
  std::optional<std::chrono::milliseconds> stalled_for = {};
  std::string stalled_state = {};
  bool success() const noexcept { return exited && code == 0 && !lost; }
  std::string describe() const;
};

struct child_stdio {
  int stdin_fd = -1;  // -1 leaves the parent's in place
  int stdout_fd = -1;
  // Handed to the child as descriptors 3, 4, ... in this order; every other descriptor from 3 up
  // is closed in the child.
  std::vector<int> inherited_fds = {};
};

// The descriptor number at which a child finds the index-th of its inherited_fds.
inline constexpr int first_inherited_fd = 3;

class spawned_process {
 public:
  // name identifies the worker in every error message.
  static spawned_process start(std::string name, const std::vector<std::string>& argv,
                               child_stdio stdio = {});

  spawned_process(spawned_process&& other) noexcept;
  spawned_process& operator=(spawned_process&& other) noexcept;
  spawned_process(const spawned_process&) = delete;
  spawned_process& operator=(const spawned_process&) = delete;
  ~spawned_process();

  pid_t pid() const noexcept { return pid_; }
  const std::string& name() const noexcept { return name_; }

  // The exit status if the process has ended, without blocking.
  std::optional<exit_status> poll();
  // Waits until the process ends; past the deadline it is killed and deadline_exceeded thrown.
  exit_status wait_for(std::chrono::milliseconds timeout);
  void kill_and_reap() noexcept;

 private:
  spawned_process(std::string name, pid_t pid) : name_(std::move(name)), pid_(pid) {}
  void record_exit(exit_status status) noexcept;

  std::string name_;
  pid_t pid_ = -1;
  std::optional<exit_status> status_;
};

// A path that starts this program's own file, so that it can start itself in a worker role, even
// after the file on disk was replaced (relinked) during the run.
std::string self_executable_path();

}  // namespace handoff::transport

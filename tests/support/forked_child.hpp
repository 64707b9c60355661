#pragma once
// Runs a check in a forked child and collects its verdict as the exit code. The child only calls
// _exit: returning into GoogleTest, or running the parent's atexit handlers, would let the child
// report tests and tear down state that belong to the parent.

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

namespace handoff::test_support {

struct child_outcome {
  bool exited = false;  // false: killed by a signal, or still running at the deadline
  int code = -1;        // the exit code, when exited
  std::string description;
};

// Forks, runs verdict() in the child and _exits with what it returns (an exception is code 125).
// The parent waits until the deadline, then kills the child.
template <class Verdict>
child_outcome run_in_forked_child(Verdict&& verdict,
                                  std::chrono::seconds timeout = std::chrono::seconds(60)) {
  const pid_t child = ::fork();
  if (child < 0) return {false, -1, "fork failed"};
  if (child == 0) {
    int code = 125;
    try {
      code = verdict();
    } catch (...) {
    }
    ::_exit(code);
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int raw = 0;
  while (true) {
    const pid_t done = ::waitpid(child, &raw, WNOHANG);
    if (done == child) break;
    if (done < 0) return {false, -1, "waitpid failed"};
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &raw, 0);
      return {false, -1, "the child was still running at the deadline and was killed"};
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (WIFEXITED(raw)) {
    return {true, WEXITSTATUS(raw), "exited with code " + std::to_string(WEXITSTATUS(raw))};
  }
  return {false, -1, "killed by signal " + std::to_string(WTERMSIG(raw))};
}

}  // namespace handoff::test_support

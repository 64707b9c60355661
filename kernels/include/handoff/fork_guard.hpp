#pragma once
// CUDA does not survive fork: a child of a process that initialised CUDA inherits a driver state it
// cannot use, and its first CUDA call fails with an obscure initialisation error, or hangs on a
// lock some parent thread held at the fork. handoff starts workers as new programs (spawn
// semantics) and never forks after CUDA is up; this guard catches the mistake up front and names
// it.

#include <sys/types.h>

#include <string>
#include <utility>

#include "handoff/cuda_check.hpp"

namespace handoff {

// CUDA used in a process forked from one that had initialised CUDA.
class cuda_used_after_fork : public cuda_error {
 public:
  cuda_used_after_fork(std::string message, int code, pid_t cuda_parent, pid_t child)
      : cuda_error(std::move(message), code), cuda_parent_(cuda_parent), child_(child) {}
  pid_t cuda_parent() const noexcept { return cuda_parent_; }
  pid_t child() const noexcept { return child_; }

 private:
  pid_t cuda_parent_;
  pid_t child_;
};

// Records, once per process, that this process has initialised CUDA, and from then on marks any
// child forked from it as unable to use CUDA.
void note_cuda_initialised_in_this_process() noexcept;

// True in a process forked (at any depth) from one that had initialised CUDA.
bool forked_after_cuda_initialisation() noexcept;

// Throws cuda_used_after_fork when forked_after_cuda_initialisation().
void require_cuda_usable_in_this_process();

// Throws cuda_used_after_fork for this process; attempt says what it was doing, and code is the
// CUDA error that goes with it (cudaErrorInitializationError when no call was made).
[[noreturn]] void throw_cuda_used_after_fork(const std::string& attempt, int code);

// What every place that first touches CUDA calls: refuse in a forked child, otherwise note that
// this process now holds CUDA state.
inline void enter_cuda() {
  require_cuda_usable_in_this_process();
  note_cuda_initialised_in_this_process();
}

}  // namespace handoff

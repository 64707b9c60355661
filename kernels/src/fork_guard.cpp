#include "handoff/fork_guard.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>

namespace handoff {
namespace {

// The process that initialised CUDA. A forked child inherits the value, so in the child it names
// the parent (or the ancestor) whose CUDA state the child cannot use.
std::atomic<pid_t> cuda_initialised_in{0};
// Set in a child by the fork handler below.
std::atomic<bool> forked_after_cuda{false};

// Runs in the child of every fork() made through the C library after CUDA was initialised. It may
// only do async-signal-safe work, so it stores a flag and nothing else.
void mark_child_forked_after_cuda() noexcept {
  forked_after_cuda.store(true, std::memory_order_relaxed);
}

}  // namespace

void note_cuda_initialised_in_this_process() noexcept {
  pid_t none = 0;
  // A value inherited through fork is kept: it is what names the parent in the error.
  cuda_initialised_in.compare_exchange_strong(none, ::getpid());
  [[maybe_unused]] static const bool handler_registered =
      ::pthread_atfork(nullptr, nullptr, mark_child_forked_after_cuda) == 0;
}

bool forked_after_cuda_initialisation() noexcept {
  if (forked_after_cuda.load(std::memory_order_relaxed)) return true;
  // A fork that skips the atfork handlers (the raw clone system call, glibc's _Fork) still shows as
  // a change of process id.
  const pid_t owner = cuda_initialised_in.load();
  return owner != 0 && owner != ::getpid();
}

void require_cuda_usable_in_this_process() {
  if (forked_after_cuda_initialisation()) {
    throw_cuda_used_after_fork("CUDA is about to be used", cudaErrorInitializationError);
  }
}

void throw_cuda_used_after_fork(const std::string& attempt, int code) {
  const pid_t parent = cuda_initialised_in.load();
  const pid_t child = ::getpid();
  throw cuda_used_after_fork(
      attempt + " in process " + std::to_string(child) + ", which was forked from process " +
          std::to_string(parent) +
          " after that process had initialised CUDA. A forked child cannot use its parent's CUDA "
          "state (its calls fail with an initialisation error or hang). Workers must be started "
          "with spawn semantics, as new programs (posix_spawn of this executable in a worker "
          "role, e.g. through worker_pool), not with fork.",
      code, parent, child);
}

}  // namespace handoff

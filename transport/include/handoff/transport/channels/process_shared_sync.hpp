#pragma once
// Synchronisation that lives in shared memory and works between processes that may be killed at
// any instant:
//  - a robust, process-shared mutex: when its owner dies, the next locker is told (EOWNERDEAD)
//    instead of waiting forever, and can judge whether the state it guards is intact;
//  - a wake-up word on a shared futex, for "wait until this shared counter changes".
// No process-shared condition variable on purpose: glibc's pthread_cond_destroy waits for every
// waiter to leave, and a waiter that was killed never does; a futex word has no such bookkeeping.
// Every wait is cut into slices of at most peer_watch_interval, so a lost wake-up costs at most one
// slice and the caller's check runs while it waits.

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>

#include "handoff/transport/channels/peer_watch.hpp"
#include "handoff/transport/fd_io.hpp"

namespace handoff::transport {

// Initialises a mutex in shared memory (once, by the creator): process-shared and robust.
void initialize_robust_mutex(pthread_mutex_t& mutex);

enum class lock_outcome {
  acquired,
  acquired_from_dead_owner,  // held now; the previous owner died holding it (call mark_consistent)
  unrecoverable,             // a previous recoverer died too; not held
  timed_out,                 // not held
};

// Locks until the deadline, calling on_stall at least every peer_watch_interval while it waits.
lock_outcome lock_robust_mutex(pthread_mutex_t& mutex, deadline_clock::time_point deadline,
                               const std::function<void()>& on_stall);
// As above without waiting: timed_out means another process holds it.
lock_outcome try_lock_robust_mutex(pthread_mutex_t& mutex);
void mark_consistent(pthread_mutex_t& mutex) noexcept;

// Unlocks a robust mutex when the scope ends, unless released.
class robust_mutex_hold {
 public:
  explicit robust_mutex_hold(pthread_mutex_t& mutex) noexcept : mutex_(&mutex) {}
  robust_mutex_hold(const robust_mutex_hold&) = delete;
  robust_mutex_hold& operator=(const robust_mutex_hold&) = delete;
  ~robust_mutex_hold() { unlock(); }
  void unlock() noexcept {
    if (mutex_) ::pthread_mutex_unlock(mutex_);
    mutex_ = nullptr;
  }

 private:
  pthread_mutex_t* mutex_;
};

// A counter in shared memory that waiters sleep on (a shared, not private, futex).
struct shared_wakeup {
  std::atomic<std::uint32_t> sequence{0};
  std::atomic<std::uint32_t> waiters{0};  // lets wake_all skip the system call when nobody waits
};
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);

// Wakes every process waiting on wakeup. Call after changing the state that they wait for.
void wake_all(shared_wakeup& wakeup) noexcept;

// Sleeps until wakeup's sequence differs from seen, a wake_all, or until; may return early.
void sleep_on(shared_wakeup& wakeup, std::uint32_t seen, deadline_clock::time_point until);

// Waits until ready() is true and returns true, or returns false at the deadline. on_stall (which
// may throw) runs at least every peer_watch_interval. ready() is tried once even past the deadline.
inline void pause_while_spinning() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Spins for spin_before_sleeping before it sleeps: the pipelined rows wait once per chunk.
template <class Ready>
bool wait_until(shared_wakeup& wakeup, Ready&& ready, deadline_clock::time_point deadline,
                const std::function<void()>& on_stall) {
  const auto spin_end = std::min(deadline, deadline_clock::now() + spin_before_sleeping);
  do {
    if (ready()) return true;
    pause_while_spinning();
  } while (deadline_clock::now() < spin_end);
  auto next_stall_check = deadline_clock::now() + peer_watch_interval;
  while (true) {
    // Read before testing, so that a change between the test and the sleep ends the sleep at once.
    const std::uint32_t seen = wakeup.sequence.load();
    if (ready()) return true;
    const auto now = deadline_clock::now();
    if (now >= deadline) return false;
    if (now >= next_stall_check) {
      if (on_stall) on_stall();
      next_stall_check = now + peer_watch_interval;
      continue;
    }
    sleep_on(wakeup, seen, std::min(deadline, next_stall_check));
  }
}

}  // namespace handoff::transport

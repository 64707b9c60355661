#pragma once
// Synchronisation that lives in shared memory, between processes that may be killed at any
// instant and may write anything into the memory they share. Every piece of state is one 32-bit
// word on a shared (not private) futex, read once, checked, and changed only by compare-and-swap,
// so no value another process writes can make this one crash, abort or wait past its deadline:
//  - shared_lock: a lock whose word names the thread holding it, so that a waiter can tell a
//    holder that died (its thread is gone, or a zombie) and take the lock over, as from a robust
//    mutex. A word that is no state of a lock is shared_state_corrupted, naming the lock.
//  - shared_wakeup: a sequence counter that waiters sleep on, for "wait until this shared state
//    changes" (condition signalling without a condition variable). Every value is a sequence.
// No pthread objects on purpose: glibc trusts their contents (garbage in a process-shared mutex is
// an assertion failure and an abort, tpp.c:83), and a process-shared condition variable's destroy
// waits for every waiter to leave, which a killed one never does.
// Every wait is cut into slices of at most peer_watch_interval, so a lost wake-up costs at most one
// slice and the caller's check runs while it waits.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string_view>

#include "handoff/transport/channels/channel_errors.hpp"
#include "handoff/transport/channels/peer_watch.hpp"
#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/stop_request.hpp"

namespace handoff::transport {

// A lock in shared memory. Its word is 0 when free, else the holder's thread id (at most
// max_lock_thread_id), with lock_waiters_flag set once some thread may sleep on it. Bit 30 is
// never set. A zero-filled lock is free, so a new segment needs no initialisation.
struct shared_lock {
  std::atomic<std::uint32_t> word{0};
};
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
static_assert(sizeof(shared_lock) == sizeof(std::uint32_t));

inline constexpr std::uint32_t lock_waiters_flag = 0x8000'0000u;
inline constexpr std::uint32_t lock_thread_id_mask = 0x3fff'ffffu;
// The kernel's PID_MAX_LIMIT: no thread id is larger.
inline constexpr std::uint32_t max_lock_thread_id = 1u << 22;
// How long a waiter trusts a holder before it checks that the holder's thread still lives.
inline constexpr std::chrono::milliseconds lock_holder_check_interval{10};

enum class lock_outcome {
  acquired,
  acquired_from_dead_owner,  // held now; its holder died holding it: repair what it guards
  timed_out,                 // not held
};

// Locks until the deadline, calling on_stall at least every peer_watch_interval while it waits. A
// holder whose thread no longer runs is noticed within lock_holder_check_interval, and at the
// deadline. name says what the lock is, for errors: "queue jobs's writer lock". A word that is no
// state of a lock, or one naming this thread (which never locks twice), is
// shared_state_corrupted.
lock_outcome lock_shared(shared_lock& lock, deadline_clock::time_point deadline,
                         const std::function<void()>& on_stall, std::string_view name);
// As above without waiting: timed_out means a live thread holds it.
lock_outcome try_lock_shared(shared_lock& lock, std::string_view name);
// Frees the lock if this thread holds it and wakes its waiters. False, leaving the word as it is,
// when the word does not name this thread: another process wrote over it while it was held.
bool unlock_shared(shared_lock& lock) noexcept;

// Whether a thread id names no running thread any more: none has it, or its process is a zombie.
// A thread this process may not inspect counts as running.
bool thread_is_gone(std::uint32_t thread_id) noexcept;

// Unlocks a shared lock when the scope ends, unless released.
class shared_lock_hold {
 public:
  explicit shared_lock_hold(shared_lock& lock) noexcept : lock_(&lock) {}
  shared_lock_hold(const shared_lock_hold&) = delete;
  shared_lock_hold& operator=(const shared_lock_hold&) = delete;
  ~shared_lock_hold() { unlock(); }
  void unlock() noexcept {
    // A word another process overwrote is left alone; the next locker checks it.
    if (lock_) unlock_shared(*lock_);
    lock_ = nullptr;
  }

 private:
  shared_lock* lock_;
};

// A counter in shared memory that waiters sleep on (a shared, not private, futex).
struct shared_wakeup {
  std::atomic<std::uint32_t> sequence{0};
  std::atomic<std::uint32_t> waiters{0};  // lets wake_all skip the system call when nobody waits
};

// Wakes every process waiting on wakeup. Call after changing the state that they wait for.
void wake_all(shared_wakeup& wakeup) noexcept;

// Sleeps until wakeup's sequence differs from seen, a wake_all, or until; may return early.
void sleep_on(shared_wakeup& wakeup, std::uint32_t seen, deadline_clock::time_point until);

// Waits until ready() is true and returns true, or returns false at the deadline. on_stall (which
// may throw) runs at least every peer_watch_interval. ready() is tried once even past the deadline.
// Spins for spin_length() before it sleeps: the pipelined rows wait once per chunk.
template <class Ready>
bool wait_until(shared_wakeup& wakeup, Ready&& ready, deadline_clock::time_point deadline,
                const std::function<void()>& on_stall) {
  const auto spin_end = std::min(deadline, deadline_clock::now() + spin_length());
  do {
    if (ready()) return true;
    offer_the_core();
  } while (deadline_clock::now() < spin_end);
  auto next_stall_check = deadline_clock::now() + peer_watch_interval;
  while (true) {
    // Read before testing, so that a change between the test and the sleep ends the sleep at once.
    const std::uint32_t seen = wakeup.sequence.load();
    if (ready()) return true;
    throw_if_stop_requested("waiting for a peer in shared memory");
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

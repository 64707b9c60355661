#include "handoff/transport/channels/process_shared_sync.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <string>

#include "handoff/transport/process_state.hpp"

namespace handoff::transport {
namespace {

std::uint32_t this_thread_id() noexcept {
  return static_cast<std::uint32_t>(::gettid());
}

timespec relative_timespec(deadline_clock::duration left) {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(left);
  const auto nanoseconds = std::chrono::duration_cast<std::chrono::nanoseconds>(left - seconds);
  return {static_cast<time_t>(seconds.count()), static_cast<long>(nanoseconds.count())};
}

// Sleeps while *word holds expected, until a wake or until. Not FUTEX_PRIVATE: the word lives in
// memory that other processes map.
void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected,
                deadline_clock::time_point until) {
  const auto left = until - deadline_clock::now();
  if (left <= deadline_clock::duration::zero()) return;
  const timespec relative = relative_timespec(left);
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT, expected, &relative,
            nullptr, 0);
}

void futex_wake_all(std::atomic<std::uint32_t>& word) noexcept {
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE, INT_MAX, nullptr,
            nullptr, 0);
}

[[noreturn]] void throw_corrupted(std::string_view name, std::uint32_t word, const char* why) {
  char value[16];
  std::snprintf(value, sizeof(value), "%#010x", word);
  throw shared_state_corrupted(std::string(name) + " holds " + value + ", " + why +
                               "; another process wrote over it");
}

// The thread id in a lock word, 0 when free; a word that is no state of a lock throws.
std::uint32_t holder_of(std::uint32_t word, std::string_view name) {
  const std::uint32_t holder = word & lock_thread_id_mask;
  if ((word & ~(lock_waiters_flag | lock_thread_id_mask)) != 0 || holder > max_lock_thread_id) {
    throw_corrupted(name, word, "which is no state of a lock");
  }
  // Only a held lock has waiters: a waiter sets the flag on a word naming a holder.
  if (holder == 0 && word != 0) throw_corrupted(name, word, "waiters on a free lock");
  return holder;
}

[[noreturn]] void throw_held_by_this_thread(std::string_view name, std::uint32_t word) {
  throw_corrupted(name, word, "naming this thread as its holder, which it is not");
}

// Takes over a lock from a holder that died; false when another thread changed the word first.
bool take_over(shared_lock& lock, std::uint32_t word, std::uint32_t me) {
  return lock.word.compare_exchange_strong(word, me | (word & lock_waiters_flag),
                                           std::memory_order_acquire);
}

}  // namespace

bool thread_is_gone(std::uint32_t thread_id) noexcept {
  const auto state = process_state_letter(static_cast<int>(thread_id));
  return !state || *state == 'Z' || *state == 'X' || *state == 'x';
}

lock_outcome lock_shared(shared_lock& lock, deadline_clock::time_point deadline,
                         const std::function<void()>& on_stall, std::string_view name) {
  const std::uint32_t me = this_thread_id();
  std::uint32_t free_word = 0;
  if (lock.word.compare_exchange_strong(free_word, me, std::memory_order_acquire)) {
    return lock_outcome::acquired;
  }
  auto now = deadline_clock::now();
  auto next_stall_check = now + peer_watch_interval;
  auto next_holder_check = now + lock_holder_check_interval;
  // Once this thread has slept on the lock, it takes the lock with the waiters flag set, since
  // other sleepers may remain; their wake-up then comes with its unlock.
  std::uint32_t mine = me;
  while (true) {
    std::uint32_t word = lock.word.load(std::memory_order_acquire);
    const std::uint32_t holder = holder_of(word, name);
    if (holder == 0) {
      if (lock.word.compare_exchange_strong(word, mine, std::memory_order_acquire)) {
        return lock_outcome::acquired;
      }
      continue;
    }
    if (holder == me) throw_held_by_this_thread(name, word);
    throw_if_stop_requested("waiting for the lock " + std::string(name));
    now = deadline_clock::now();
    if (now >= next_holder_check || now >= deadline) {
      if (thread_is_gone(holder)) {
        if (take_over(lock, word, me)) return lock_outcome::acquired_from_dead_owner;
        continue;
      }
      next_holder_check = now + lock_holder_check_interval;
    }
    if (now >= deadline) return lock_outcome::timed_out;
    if (now >= next_stall_check) {
      if (on_stall) on_stall();
      next_stall_check = deadline_clock::now() + peer_watch_interval;
      continue;
    }
    if ((word & lock_waiters_flag) == 0) {
      if (!lock.word.compare_exchange_strong(word, word | lock_waiters_flag,
                                             std::memory_order_relaxed)) {
        continue;
      }
      word |= lock_waiters_flag;
    }
    mine = me | lock_waiters_flag;
    futex_wait(lock.word, word, std::min({deadline, next_stall_check, next_holder_check}));
  }
}

lock_outcome try_lock_shared(shared_lock& lock, std::string_view name) {
  const std::uint32_t me = this_thread_id();
  std::uint32_t word = lock.word.load(std::memory_order_acquire);
  const std::uint32_t holder = holder_of(word, name);
  if (holder == 0) {
    return lock.word.compare_exchange_strong(word, me, std::memory_order_acquire)
               ? lock_outcome::acquired
               : lock_outcome::timed_out;
  }
  if (holder == me) throw_held_by_this_thread(name, word);
  if (thread_is_gone(holder) && take_over(lock, word, me)) {
    return lock_outcome::acquired_from_dead_owner;
  }
  return lock_outcome::timed_out;
}

bool unlock_shared(shared_lock& lock) noexcept {
  const std::uint32_t me = this_thread_id();
  std::uint32_t word = lock.word.load(std::memory_order_relaxed);
  do {
    if ((word & ~lock_waiters_flag) != me) return false;
  } while (!lock.word.compare_exchange_weak(word, 0, std::memory_order_release,
                                            std::memory_order_relaxed));
  if (word & lock_waiters_flag) futex_wake_all(lock.word);
  return true;
}

void wake_all(shared_wakeup& wakeup) noexcept {
  wakeup.sequence.fetch_add(1);
  if (wakeup.waiters.load() == 0) return;
  futex_wake_all(wakeup.sequence);
}

void sleep_on(shared_wakeup& wakeup, std::uint32_t seen, deadline_clock::time_point until) {
  // Counted before the futex re-reads the sequence, so a wake_all that misses the count has
  // already changed the sequence, and the futex then refuses to sleep.
  wakeup.waiters.fetch_add(1);
  futex_wait(wakeup.sequence, seen, until);
  wakeup.waiters.fetch_sub(1);
}

}  // namespace handoff::transport

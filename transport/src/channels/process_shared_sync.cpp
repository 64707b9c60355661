#include "handoff/transport/channels/process_shared_sync.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <string>

#include "handoff/transport/process_errors.hpp"

namespace handoff::transport {
namespace {

// libstdc++'s steady_clock is CLOCK_MONOTONIC, the clock the mutex and futex waits below use.
timespec monotonic_timespec(deadline_clock::time_point when) {
  const auto since_epoch = when.time_since_epoch();
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
  const auto nanoseconds =
      std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch - seconds);
  return {static_cast<time_t>(seconds.count()), static_cast<long>(nanoseconds.count())};
}

void check(int error, const char* what) {
  if (error != 0) throw process_error(std::string(what) + ": " + std::strerror(error));
}

lock_outcome outcome_of(int error, const char* what) {
  switch (error) {
    case 0:
      return lock_outcome::acquired;
    case EOWNERDEAD:
      return lock_outcome::acquired_from_dead_owner;
    case ENOTRECOVERABLE:
      return lock_outcome::unrecoverable;
    case ETIMEDOUT:
    case EBUSY:
      return lock_outcome::timed_out;
    default:
      throw process_error(std::string(what) + ": " + std::strerror(error));
  }
}

}  // namespace

void initialize_robust_mutex(pthread_mutex_t& mutex) {
  pthread_mutexattr_t attributes;
  check(::pthread_mutexattr_init(&attributes), "pthread_mutexattr_init");
  int error = ::pthread_mutexattr_setpshared(&attributes, PTHREAD_PROCESS_SHARED);
  if (error == 0) error = ::pthread_mutexattr_setrobust(&attributes, PTHREAD_MUTEX_ROBUST);
  if (error == 0) error = ::pthread_mutex_init(&mutex, &attributes);
  ::pthread_mutexattr_destroy(&attributes);
  check(error, "initialising a robust process-shared mutex");
}

lock_outcome lock_robust_mutex(pthread_mutex_t& mutex, deadline_clock::time_point deadline,
                               const std::function<void()>& on_stall) {
  while (true) {
    const auto now = deadline_clock::now();
    const auto slice_end = std::min(deadline, now + peer_watch_interval);
    const timespec until = monotonic_timespec(slice_end);
    const auto outcome =
        outcome_of(::pthread_mutex_clocklock(&mutex, CLOCK_MONOTONIC, &until), "locking");
    if (outcome != lock_outcome::timed_out) return outcome;
    if (deadline_clock::now() >= deadline) return lock_outcome::timed_out;
    if (on_stall) on_stall();
  }
}

lock_outcome try_lock_robust_mutex(pthread_mutex_t& mutex) {
  return outcome_of(::pthread_mutex_trylock(&mutex), "trying a lock");
}

void mark_consistent(pthread_mutex_t& mutex) noexcept {
  ::pthread_mutex_consistent(&mutex);
}

void wake_all(shared_wakeup& wakeup) noexcept {
  wakeup.sequence.fetch_add(1);
  if (wakeup.waiters.load() == 0) return;
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&wakeup.sequence), FUTEX_WAKE, INT_MAX,
            nullptr, nullptr, 0);
}

void sleep_on(shared_wakeup& wakeup, std::uint32_t seen, deadline_clock::time_point until) {
  const auto left = until - deadline_clock::now();
  if (left <= deadline_clock::duration::zero()) return;
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(left);
  const auto nanoseconds = std::chrono::duration_cast<std::chrono::nanoseconds>(left - seconds);
  const timespec relative{static_cast<time_t>(seconds.count()),
                          static_cast<long>(nanoseconds.count())};
  // Counted before the futex re-reads the sequence, so a wake_all that misses the count has
  // already changed the sequence, and the futex then refuses to sleep.
  wakeup.waiters.fetch_add(1);
  // Not FUTEX_PRIVATE: the word lives in memory that other processes map.
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&wakeup.sequence), FUTEX_WAIT, seen,
            &relative, nullptr, 0);
  wakeup.waiters.fetch_sub(1);
}

}  // namespace handoff::transport

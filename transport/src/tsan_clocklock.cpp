// Built only under ThreadSanitizer (HANDOFF_SANITIZE=thread, cmake/Sanitizers.cmake), and linked
// with -Wl,--wrap=pthread_mutex_clocklock, so that every call to pthread_mutex_clocklock in the
// program comes here first.
//
// Why: GCC 12's libtsan intercepts pthread_mutex_lock, trylock, timedlock and unlock, but not
// pthread_mutex_clocklock (glibc 2.30): https://github.com/llvm/llvm-project/issues/62623; LLVM
// added an interceptor in December 2023 (llvm/llvm-project#75713), after GCC 12's copy of the
// runtime. A mutex locked with it is, for TSan, never locked: the next unlock is reported as
// "unlock of an unlocked mutex", and what the mutex guards as racing. The robust process-shared
// mutexes (transport/src/channels/process_shared_sync.cpp) are locked with it, against
// CLOCK_MONOTONIC, the clock of deadline_clock. Without this wrapper, many of the process and
// channel tests (tests/process) failed that way, in robust_mutex_hold::unlock.
//
// The wrapper calls glibc's function unchanged and tells TSan what it did with the annotations TSan
// provides for mutexes it does not intercept, the same events its own timedlock interceptor
// records. It hides no report: a real race or misuse of these mutexes is still reported.

#include <errno.h>
#include <pthread.h>
#include <sanitizer/tsan_interface.h>
#include <time.h>

extern "C" {

int __real_pthread_mutex_clocklock(pthread_mutex_t* mutex, clockid_t clock,
                                   const struct timespec* abstime);

int __wrap_pthread_mutex_clocklock(pthread_mutex_t* mutex, clockid_t clock,
                                   const struct timespec* abstime) {
  // A lock with a deadline may fail, so TSan is told of a try-lock, as for pthread_mutex_timedlock.
  __tsan_mutex_pre_lock(mutex, __tsan_mutex_try_lock);
  const int result = __real_pthread_mutex_clocklock(mutex, clock, abstime);
  // EOWNERDEAD: a robust mutex whose owner died is held now, like a plain success.
  const bool held = result == 0 || result == EOWNERDEAD;
  __tsan_mutex_post_lock(
      mutex, held ? __tsan_mutex_try_lock : __tsan_mutex_try_lock | __tsan_mutex_try_lock_failed,
      0);
  return result;
}

}  // extern "C"

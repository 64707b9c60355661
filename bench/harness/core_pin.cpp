#include "core_pin.hpp"

#include <pthread.h>

namespace handoff::bench {

core_pin::core_pin(bool wanted) {
  if (!wanted) return;
  if (pthread_getaffinity_np(pthread_self(), sizeof(previous_), &previous_) != 0) return;
  if (CPU_COUNT(&previous_) < 2) return;
  int last = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &previous_)) last = cpu;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(last, &one);
  // A machine that refuses (a container's policy) measures unpinned, as before: the row's
  // pinned_core counter says which it was.
  if (pthread_setaffinity_np(pthread_self(), sizeof(one), &one) == 0) core_ = last;
}

core_pin::~core_pin() {
  if (core_) pthread_setaffinity_np(pthread_self(), sizeof(previous_), &previous_);
}

}  // namespace handoff::bench

#include "handoff/transport/process/worker_scheduling.hpp"

#include <sched.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace handoff::transport {

worker_scheduling worker_scheduling_from_environment() {
  const char* setting = std::getenv("HANDOFF_WORKER_SCHED");
  const std::string_view value = setting == nullptr ? "" : setting;
  if (value.empty() || value == "batch") return worker_scheduling::batch;
  if (value == "normal") return worker_scheduling::normal;
  throw std::invalid_argument("HANDOFF_WORKER_SCHED must be batch or normal, not '" +
                              std::string(value) + "'");
}

const char* name_of(worker_scheduling policy) noexcept {
  return policy == worker_scheduling::normal ? "normal" : "batch";
}

void schedule_this_worker() noexcept {
  worker_scheduling policy = worker_scheduling::batch;
  try {
    policy = worker_scheduling_from_environment();
  } catch (const std::invalid_argument&) {
    // handoff_bench has refused a bad setting before starting any worker.
  }
  const sched_param unprioritised{};
  const int wanted = policy == worker_scheduling::batch ? SCHED_BATCH : SCHED_OTHER;
  if (::sched_setscheduler(0, wanted, &unprioritised) != 0)
    std::fprintf(stderr, "worker: could not set its scheduling policy to %s: %s\n", name_of(policy),
                 std::strerror(errno));
}

int scheduling_policy_of_this_thread() noexcept {
  return ::sched_getscheduler(0);
}

}  // namespace handoff::transport

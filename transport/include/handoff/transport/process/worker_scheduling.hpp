#pragma once
// How the kernel schedules each worker process, from HANDOFF_WORKER_SCHED: `batch` (unset or empty
// too) puts the worker under SCHED_BATCH, whose woken tasks never preempt the task running on their
// core, so that a worker woken by its dispatcher's request waits for the dispatcher's next pause
// rather than taking its core in the middle of the requests still to send; `normal` leaves it under
// SCHED_OTHER, a switch for experiments. Anything else is std::invalid_argument. Neither needs a
// privilege, and neither changes a worker's share of the CPU when cores are free
// (docs/design/measured-along-the-way.md).

namespace handoff::transport {

enum class worker_scheduling { batch, normal };
worker_scheduling worker_scheduling_from_environment();
const char* name_of(worker_scheduling policy) noexcept;

// Puts the calling worker process under the environment's policy; a machine that refuses leaves it
// as it was, and says so once on stderr.
void schedule_this_worker() noexcept;

// The calling thread's policy, as the kernel reports it: SCHED_BATCH or SCHED_OTHER, say.
int scheduling_policy_of_this_thread() noexcept;

}  // namespace handoff::transport

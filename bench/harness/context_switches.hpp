#pragma once
// How often a row's processes gave up their cores while it ran (its warm-up and samples): this
// process's threads and every process it started (the workers of a pool), counted together. A
// voluntary switch is a thread that slept (a wait that outlasted its spin, a blocking GPU
// synchronisation); an involuntary one was preempted or handed its core to another thread (a spin's
// sched_yield that found one waiting). A hand-off whose processes sleep pays a wake-up on every
// message: set side by side, the counts of a row's quick and slow processes show whether that is
// what tells them apart.
//
// The kernel keeps a thread's counts while the thread lives, and a process's ended threads only
// where that process itself can read them (getrusage). So the difference of two readings is exact
// for this process's threads, for the threads of descendants that live through the window, and
// for descendants started and reaped (by this process) inside it, which is what a pool that starts
// before the samples and ends after them needs. It misses a descendant's thread that ends inside
// the window and a grandchild reaped by its parent inside it; a child alive at the start and
// reaped inside brings the earlier counts of its already ended threads with it. The readings
// assume no other thread reaps a child while they are taken.

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace handoff::bench {

struct context_switches {
  std::uint64_t voluntary = 0;
  std::uint64_t involuntary = 0;
};

// The two counts of a /proc/PID/task/TID/status text; nothing where either line is missing.
std::optional<context_switches> parse_status_switches(std::string_view status);

// Every live thread of one process, summed (/proc/PID/status holds its first thread's alone).
context_switches switches_of_every_thread(pid_t process);

// The counts between construction and per_run(), divided by the runs taken in between. Each
// reading leaves its own scan of /proc outside the window. Nothing where /proc or getrusage cannot
// be read, or where the counts shrank (a descendant left the tree, reparented when its parent
// ended).
class switches_while_running {
 public:
  switches_while_running();
  struct per_run_switches {
    double voluntary = 0.0;
    double involuntary = 0.0;
  };
  std::optional<per_run_switches> per_run(std::size_t runs) const;

 private:
  std::optional<context_switches> start_;
};

}  // namespace handoff::bench

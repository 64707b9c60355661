#pragma once
// How often a row's processes gave up their cores while it sampled: this process's threads and
// every process it started (the workers of a pool), counted together. A voluntary switch is a
// thread that slept (a wait that outlasted its spin); an involuntary one was preempted or handed
// its core to another thread (a spin's sched_yield that found one waiting). A hand-off whose
// processes sleep pays a wake-up on every message, and a virtual machine charges more for one than
// a bare machine: set side by side, a row's quick and slow processes show whether that is what
// tells them apart.

#include <sys/types.h>

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
// The parent's id from a /proc/PID/stat text (its command name may hold spaces and parentheses).
std::optional<pid_t> parse_stat_parent(std::string_view stat);

// This process's threads, the descendants it has waited for, and those alive now, summed. The
// difference of two readings counts what the tree did between them, a descendant that was
// started or reaped in between included. Nothing where /proc or getrusage cannot be read.
std::optional<context_switches> read_process_tree_switches();

// The counts between construction and per_run(), divided by the runs taken in between.
class switches_while_sampling {
 public:
  switches_while_sampling();
  struct per_run_switches {
    double voluntary = 0.0;
    double involuntary = 0.0;
  };
  std::optional<per_run_switches> per_run(std::size_t runs) const;

 private:
  std::optional<context_switches> start_;
};

}  // namespace handoff::bench

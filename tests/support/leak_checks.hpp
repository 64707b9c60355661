#pragma once
// What conformance tests check after killing or shutting down workers: which shared-memory
// segments this process still holds, and whether a process still runs or still exists.
//
// A segment is an anonymous memory file (shared_memory_segment.hpp): it is never in /dev/shm, and
// the kernel frees it once no process holds its descriptor or a mapping of it. So a leaked segment
// is one still held, and shows in /proc/self/fd and /proc/self/maps as
// "/memfd:handoff-<purpose>-<random> (deleted)". What a worker holds ends with the worker, which
// process_runs and process_exists check.

#include <sys/types.h>

#include <set>
#include <string>
#include <string_view>

namespace handoff::leak_checks {

// The names ("handoff-<purpose>-<random>") of the segments this process still holds open or
// mapped whose names contain fragment (a purpose string, a pid marker, a prefix).
std::set<std::string> held_segments_containing(std::string_view fragment);

// False once the process has ended, even while it waits as a zombie for its parent to reap it.
bool process_runs(pid_t pid);

// True until the process has been reaped: a zombie still exists. Checks that nothing was left
// unreaped.
bool process_exists(pid_t pid);

}  // namespace handoff::leak_checks

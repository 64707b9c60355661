#pragma once
// What conformance tests check after killing or shutting down workers: which shared-memory segments
// are left in /dev/shm, and whether a process still runs or still exists.

#include <sys/types.h>

#include <set>
#include <string>
#include <string_view>

namespace handoff::leak_checks {

// The names in /dev/shm that contain fragment (a purpose string, a pid marker, a prefix).
std::set<std::string> shm_segments_containing(std::string_view fragment);

// False once the process has ended, even while it waits as a zombie for its parent to reap it.
bool process_runs(pid_t pid);

// True until the process has been reaped: a zombie still exists. Checks that nothing was left
// unreaped.
bool process_exists(pid_t pid);

}  // namespace handoff::leak_checks

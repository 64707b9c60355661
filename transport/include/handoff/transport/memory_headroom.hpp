#pragma once
// How much memory the machine can still give a new shared-memory segment without the OOM killer.
// Segments are memory files on the kernel's internal shmem mount, which has no size limit of its
// own, so shared_memory_segment checks every request against this before it reserves a page.

#include <cstddef>
#include <filesystem>
#include <string>

namespace handoff::transport {

// The least of MemAvailable (/proc/meminfo) and, for this process's memory cgroup and each of its
// ancestors with a limit, the limit less the usage that cannot be reclaimed (cgroup v2:
// memory.max - memory.current + inactive_file; v1: memory.limit_in_bytes - memory.usage_in_bytes
// + total_inactive_file).
struct memory_headroom {
  std::size_t bytes = 0;
  std::string limited_by;  // what set the figure, for messages: "MemAvailable in /proc/meminfo"
};

// system_root is "/" except in tests, which lay out proc/meminfo, proc/self/cgroup and
// sys/fs/cgroup/... under a directory of their own. Unreadable files limit nothing; without even
// MemAvailable the headroom is unlimited (the reservation itself then has the last word).
memory_headroom shared_memory_headroom(const std::filesystem::path& system_root = "/");

}  // namespace handoff::transport

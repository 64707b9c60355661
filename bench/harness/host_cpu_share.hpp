#pragma once
// What the rest of the machine did while a row ran, from /proc/stat: the share of the machine's
// CPU time a hypervisor took from this guest (steal) and the share in use (busy, the row's own
// threads included). A row's processes disagree most where its figure depends on the host's CPUs,
// and on a virtual machine a neighbour's load shows as steal: recorded per row and process, it
// tells the weather of the minute from what the suite does.

#include <cstdint>
#include <optional>
#include <string_view>

namespace handoff::bench {

// The machine's CPU time since boot, in the kernel's ticks, summed over its CPUs.
struct host_cpu_times {
  std::uint64_t busy = 0;
  std::uint64_t idle = 0;  // idle and waiting for I/O
  std::uint64_t steal = 0;
};

struct host_cpu_share {
  double busy = 0.0;  // of the machine's CPU time between two readings
  double steal = 0.0;
};

// The aggregate "cpu" line of /proc/stat's text; nothing where there is none or it is malformed.
std::optional<host_cpu_times> parse_proc_stat(std::string_view text);
// This machine's, now; nothing where /proc/stat cannot be read.
std::optional<host_cpu_times> read_host_cpu_times();
// The shares between two readings; nothing where no tick passed (a row shorter than a tick).
std::optional<host_cpu_share> share_between(const host_cpu_times& before,
                                            const host_cpu_times& after);

}  // namespace handoff::bench

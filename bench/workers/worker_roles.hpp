#pragma once
// The roles handoff_bench plays when it starts itself as a worker (see
// handoff/transport/process/worker_role.hpp).

#include <string>
#include <vector>

namespace handoff::bench {

inline constexpr const char* context_probe_role = "context_probe";
inline constexpr const char* pipe_sink_role = "pipe_sink";

// The command line that starts this program in a role.
std::vector<std::string> worker_command(const std::string& role);

}  // namespace handoff::bench

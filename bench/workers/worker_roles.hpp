#pragma once
// handoff_bench doubles as its own worker program: started with --handoff-worker=ROLE it plays that
// role instead of benchmarking. Workers are thus new programs (spawn semantics), never forks of a
// process that may hold a CUDA context.

#include <optional>
#include <string>
#include <vector>

namespace handoff::bench {

inline constexpr const char* worker_flag = "--handoff-worker=";
inline constexpr const char* context_probe_role = "context_probe";
inline constexpr const char* pipe_sink_role = "pipe_sink";

// The exit code of the role, or nothing when argv asks for no role.
std::optional<int> run_worker_role_if_requested(int argc, char** argv);

// The command line that starts this program in a role.
std::vector<std::string> worker_command(const std::string& role);

}  // namespace handoff::bench
